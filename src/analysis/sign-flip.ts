import { mulberry32 } from './random.js';

/**
 * Below this spread of the log ratio (1%) a test is treated as this steady: a test whose pairs happened to agree to
 * 0.1% would otherwise turn a tiny shift into a huge statistic and dominate the maximum over tests.
 */
export const MIN_LOG_SD = 0.01;

/** Exhaustive up to 2^16 sign vectors; a seeded sample of this many beyond. */
const MAX_FLIPS = 65_536;

export interface SignFlipResult {
  /** Per series: the family-wise p-value that C is slower than B (small means a real drop). */
  slower: number[];
  /** Per series: the family-wise p-value that C is faster than B. */
  faster: number[];
  /** How many sign vectors the p-values rest on; the smallest possible p-value is 1 / flips. */
  flips: number;
  exhaustive: boolean;
}

/**
 * Westfall–Young max-T randomization test on paired log ratios log(C/B). Under "no difference" the two halves of
 * a pair are exchangeable, so the sign of each pair's log ratio is a coin flip. Pairs measured in the same sweep
 * share their moment on the host, so one sign vector flips sweep i of every series at once, which keeps the
 * correlation between tests. A series' p-value is the share of sign vectors whose largest drop over all series (as
 * Student's t of the mean log ratio) is at least the drop seen: that controls the chance of any false alarm among
 * the series, not per series. Every series must hold the same number of pairs, sweep by sweep.
 */
export function signFlipMaxT(series: ReadonlyArray<readonly number[]>, seed = 1): SignFlipResult {
  const n = series[0]?.length ?? 0;
  if (series.some((s) => s.length !== n)) throw new RangeError('signFlipMaxT: every series needs the same number of pairs');
  if (n === 0) return { slower: series.map(() => 1), faster: series.map(() => 1), flips: 1, exhaustive: true };
  const squares = series.map((s) => s.reduce((a, d) => a + d * d, 0));
  const observed = series.map((s, j) => tOf(s.reduce((a, d) => a + d, 0), squares[j]!, n));
  const slowerCounts = series.map(() => 0);
  const fasterCounts = series.map(() => 0);
  const signs = new Float64Array(n);
  const flips = flipVectors(n, seed);
  for (const fill of flips.vectors) {
    fill(signs);
    let worstDrop = -Infinity;
    let bestGain = -Infinity;
    for (let j = 0; j < series.length; j++) {
      const s = series[j]!;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += signs[i]! * s[i]!;
      const t = tOf(sum, squares[j]!, n);
      if (-t > worstDrop) worstDrop = -t;
      if (t > bestGain) bestGain = t;
    }
    for (let j = 0; j < series.length; j++) {
      if (worstDrop >= -observed[j]! - 1e-9) slowerCounts[j]! += 1;
      if (bestGain >= observed[j]! - 1e-9) fasterCounts[j]! += 1;
    }
  }
  const count = flips.count;
  return { slower: slowerCounts.map((k) => k / count), faster: fasterCounts.map((k) => k / count), flips: count, exhaustive: flips.exhaustive };
}

/** Student's t of the mean from the sum and the sum of squares (which no sign flip changes), its spread floored. */
function tOf(sum: number, squares: number, n: number): number {
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (squares - n * mean * mean) / (n - 1)) : 0;
  return mean / (Math.sqrt(Math.max(variance, MIN_LOG_SD ** 2)) / Math.sqrt(n));
}

interface Flips {
  /** Each writes one sign vector into the array it is given. */
  vectors: Iterable<(signs: Float64Array) => void>;
  count: number;
  exhaustive: boolean;
}

/** Every sign vector when there are few enough; the observed one plus a seeded sample otherwise. */
function flipVectors(n: number, seed: number): Flips {
  if (2 ** n <= MAX_FLIPS) {
    const count = 2 ** n;
    const all = function* (): Generator<(signs: Float64Array) => void> {
      for (let mask = 0; mask < count; mask++) yield (signs) => signs.forEach((_, i) => (signs[i] = (mask >> i) & 1 ? -1 : 1));
    };
    return { count, exhaustive: true, vectors: all() };
  }
  const random = mulberry32(seed);
  const sampled = function* (): Generator<(signs: Float64Array) => void> {
    yield (signs) => signs.fill(1);
    for (let k = 1; k < MAX_FLIPS; k++) yield (signs) => signs.forEach((_, i) => (signs[i] = random() < 0.5 ? -1 : 1));
  };
  return { count: MAX_FLIPS, exhaustive: false, vectors: sampled() };
}
