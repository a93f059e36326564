import { mulberry32 } from './random.js';

/**
 * Below this spread of the log ratio (1%) a test is treated as this steady: a test whose pairs happened to agree to
 * 0.1% would otherwise turn a tiny shift into a huge statistic and dominate the maximum over tests.
 */
export const MIN_LOG_SD = 0.01;

/**
 * Every sign vector up to this many (n <= 12 pairs); beyond, the observed vector plus seeded draws, this many in all.
 */
export const SIGN_VECTORS = 4096;

/**
 * For the estimate: pairs further from the robust centre than this many robust standard deviations are clipped to it.
 */
const CLIP_FACTOR = 5;

/**
 * One test's pairs at a look: d = log(QPS of C / QPS of B) per pair, and which side ran first. `baselineFirst[i]` is
 * true when B ran first in pair i (B C), false when C did (C B).
 */
export interface OrderedPairs {
  logRatios: readonly number[];
  baselineFirst: readonly boolean[];
}

/** What one test's pairs say, order-balanced and clipped around a robust centre. */
export interface PairStatistic {
  /** The order-balanced mean log ratio: the mean of the B C pairs and the mean of the C B pairs, weighted equally. */
  estimate: number;
  /** Half the difference of those two means: how much faster (log) the second run of a pair is than the first. */
  orderEffect: number;
  /**
   * The spread of a pair around its order's mean (floored at MIN_LOG_SD; NaN for one pair): the noise of a pair with
   * the order removed.
   */
  noise: number;
  /** Standard error of the estimate. */
  se: number;
  t: number;
}

export interface SignFlipResult {
  /** Per series, its estimate as measured: clipped around its robust centre, order-balanced. */
  observed: PairStatistic[];
  /** Per series: the family-wise p-value that C is slower than B (small means a real drop). */
  slower: number[];
  /** Per series: the family-wise p-value that C is faster than B. */
  faster: number[];
  /**
   * The largest drop statistic max_j(-t_j) of each sign vector, ascending; by the symmetry of sign flips the largest
   * gain max_j(t_j) has the same distribution. Critical values for intervals are read off it (criticalValue).
   */
  maxDrops: Float64Array;
  /** How many sign vectors the p-values rest on; the smallest possible p-value is 1 / flips. */
  flips: number;
  exhaustive: boolean;
}

/**
 * Westfall–Young max-T randomization test on paired log ratios, order-balanced.
 *
 * Under "no difference" the labels B and C of the two runs of a pair are exchangeable. Swapping them turns d into -d
 * and also swaps which side ran first, so one sign vector g maps (d_i, B first_i) to (g_i d_i, B first_i xor g_i<0):
 * the order groups move with the labels, and the order-balanced t (pairStatistic) is computed afresh for every sign
 * vector. The test's values are clipped at a bound that depends only on the sizes |d| (clipAroundZero), so
 * clipping and relabelling commute and the test is exact. One sign vector relabels pair i of every series at once,
 * which keeps what the tests of one sweep share; a series' p-value is the share of sign vectors whose largest drop
 * over all series is at least the drop seen, which bounds the chance of any false alarm among the series
 * (family-wise). Every series must hold the same number of pairs, sweep by sweep.
 */
export function signFlipMaxT(series: readonly OrderedPairs[], seed = 1): SignFlipResult {
  const n = series[0]?.logRatios.length ?? 0;
  if (series.some((s) => s.logRatios.length !== n || s.baselineFirst.length !== n))
    throw new RangeError('signFlipMaxT: every series needs the same number of pairs');
  const data = series.map((s) =>
    relabelling(
      clipAroundZero(s.logRatios),
      Int8Array.from(s.baselineFirst, (b) => (b ? 1 : -1)),
    ),
  );
  const sums = new Float64Array(series.length * 2);
  for (let j = 0; j < data.length; j++) {
    sums[2 * j] = data[j]!.total;
    sums[2 * j + 1] = data[j]!.orders;
  }
  const seen = data.map((x, j) => x.t(sums[2 * j]!, sums[2 * j + 1]!));
  const walk = signVectorWalk(n, seed);
  const maxDrops = new Float64Array(walk.count);
  const slowerCounts = new Array<number>(series.length).fill(0);
  const fasterCounts = new Array<number>(series.length).fill(0);
  for (let k = 0; k < walk.count; k++) {
    walk.next(k, data, sums);
    let worstDrop = -Infinity;
    let bestGain = -Infinity;
    for (let j = 0; j < data.length; j++) {
      const t = data[j]!.t(sums[2 * j]!, sums[2 * j + 1]!);
      if (-t > worstDrop) worstDrop = -t;
      if (t > bestGain) bestGain = t;
    }
    maxDrops[k] = worstDrop;
    for (let j = 0; j < series.length; j++) {
      if (worstDrop >= -seen[j]! - 1e-9) slowerCounts[j]! += 1;
      if (bestGain >= seen[j]! - 1e-9) fasterCounts[j]! += 1;
    }
  }
  maxDrops.sort();
  const count = walk.count;
  return {
    observed: series.map((s, j) => ({ ...pairStatistic(s), ...spreadOf(data[j]!) })),
    slower: slowerCounts.map((c) => c / count),
    faster: fasterCounts.map((c) => c / count),
    maxDrops,
    flips: count,
    exhaustive: walk.exhaustive,
  };
}

/**
 * One series as the test relabels it. With signs s (one per pair), the relabelled pairs are s_i d_i, and pair i is in
 * the group "B first" when s_i f_i = +1 (f_i = +1 when B ran first as measured). Both group sums follow from two sums,
 * S = sum s_i d_i and G = sum s_i f_i, and from invariants of the data: A = sum f_i d_i (for a pair in group B its
 * value is f_i d_i, in group C it is -f_i d_i) and Q = sum d_i^2. So the group B sum is (A + S) / 2, the group C sum
 * (S - A) / 2, the group B count (n + G) / 2, and the spread around the group means Q - B^2/nB - C^2/nC: the t of a
 * relabelling costs O(1) once S and G are known, and a walk that flips one sign at a time keeps them in O(1) too.
 */
interface Relabelling {
  d: Float64Array;
  first: Int8Array;
  /** S and G of the labelling as measured (all signs +1). */
  total: number;
  orders: number;
  /** The order-balanced t from S and G. */
  t(sum: number, orders: number): number;
  /** The statistic of the labelling as measured. */
  measured: PairStatistic;
}

function relabelling(d: Float64Array, first: Int8Array): Relabelling {
  const n = d.length;
  let aligned = 0;
  let squares = 0;
  let total = 0;
  let orders = 0;
  for (let i = 0; i < n; i++) {
    aligned += first[i]! * d[i]!;
    squares += d[i]! * d[i]!;
    total += d[i]!;
    orders += first[i]!;
  }
  // A relabelling that puts every pair in one order group has no order-balanced mean: its plain mean would carry the
  // order effect into the reference distribution (the two such vectors, g = +-f, relabel every test at once, and one
  // test's order effect would then block every test's first look). Any statistic keeps the test exact as long as the
  // measured labelling is judged by the same rule: those relabellings score 0. Pairs measured all in one order (a
  // stored session from before the orders alternated) carry no order to balance: the plain mean, for every labelling.
  const oneOrder = Math.abs(orders) >= n - 0.5;
  const t = (sum: number, orderSum: number): number => {
    if (oneOrder) return balancedStatistic(n, aligned, squares, sum, n).t;
    return Math.abs(orderSum) >= n - 0.5 && n > 1 ? 0 : balancedStatistic(n, aligned, squares, sum, orderSum).t;
  };
  return { d, first, total, orders, t, measured: balancedStatistic(n, aligned, squares, total, orders) };
}

/**
 * The order-balanced statistic from the sums of one labelling (see Relabelling): n pairs, A = sum f_i d_i, Q = sum
 * d_i^2,
 * S = sum of the values, G = sum of the orders (+1 B first, -1 C first). All pairs in one order (or too few to split)
 * give the plain mean, with no order effect to take out; one pair says nothing of the noise (NaN).
 */
function balancedStatistic(n: number, aligned: number, squares: number, sum: number, orderSum: number): PairStatistic {
  if (n < 2)
    return { estimate: n === 1 ? sum : 0, orderEffect: 0, noise: Number.NaN, se: Number.POSITIVE_INFINITY, t: 0 };
  const countB = (n + orderSum) / 2;
  const countC = n - countB;
  if (countB < 0.5 || countC < 0.5 || n < 3) {
    const mean = sum / n;
    const noise = Math.max(Math.sqrt(Math.max(0, squares - n * mean * mean) / (n - 1)), MIN_LOG_SD);
    const se = noise / Math.sqrt(n);
    return { estimate: mean, orderEffect: 0, noise, se, t: mean / se };
  }
  const sumB = (aligned + sum) / 2;
  const sumC = (sum - aligned) / 2;
  const residual = Math.max(0, squares - (sumB * sumB) / countB - (sumC * sumC) / countC);
  const noise = Math.max(Math.sqrt(residual / (n - 2)), MIN_LOG_SD);
  const [meanB, meanC] = [sumB / countB, sumC / countC];
  const estimate = (meanB + meanC) / 2;
  const se = (noise / 2) * Math.sqrt(1 / countB + 1 / countC);
  return { estimate, orderEffect: (meanB - meanC) / 2, noise, se, t: estimate / se };
}

/**
 * The spread of the test's own values (clipped around 0 as the test clips them) for an estimate's interval: the
 * interval's width then comes from the same values the test judges, so a pair the estimate's clip pulls in (around
 * the centre) still widens the interval as it weakens the test, and the two rarely disagree.
 */
function spreadOf(x: Relabelling): Pick<PairStatistic, 'noise' | 'se'> {
  const { noise, se } = x.measured;
  return { noise, se };
}

/**
 * The critical value c of the max-T distribution at level `alpha`: a statistic above c has a family-wise p-value of at
 * most alpha. Infinity when no statistic can reach it (alpha under 1 / flips): the look cannot reject.
 */
export function criticalValue(maxDrops: Float64Array, alpha: number): number {
  const beyond = Math.floor(alpha * maxDrops.length + 1e-9);
  if (beyond < 1 || maxDrops.length === 0) return Number.POSITIVE_INFINITY;
  return maxDrops[maxDrops.length - beyond - 1]!;
}

/**
 * A series' estimate as measured: clipped around its robust centre (so a hiccup cannot cancel a real drop), then
 * order-balanced.
 */
export function pairStatistic(pairs: OrderedPairs): PairStatistic {
  const first = Int8Array.from(pairs.baselineFirst, (b) => (b ? 1 : -1));
  const y = clipAroundCentres(pairs.logRatios, first);
  let [aligned, squares, sum, orders] = [0, 0, 0, 0];
  for (let i = 0; i < y.length; i++) {
    aligned += first[i]! * y[i]!;
    squares += y[i]! * y[i]!;
    sum += y[i]!;
    orders += first[i]!;
  }
  return balancedStatistic(y.length, aligned, squares, sum, orders);
}

/**
 * Clips each pair to its order's median +- CLIP_FACTOR x the robust spread of all pairs around their order's median. A
 * pair hit by a host hiccup (a log ratio of +2 among pairs at -0.1) is pulled to the edge of
 * its test's own spread, around where the test is, not around 0, so it cannot cancel a real drop; the centres are
 * taken per order so that an order effect is not mistaken for outliers.
 */
export function clipAroundCentres(logRatios: readonly number[], first: Int8Array): Float64Array {
  const n = logRatios.length;
  const y = Float64Array.from(logRatios);
  if (n < 3) return y;
  const centreOf = (order: number): number => {
    const group = Float64Array.from(logRatios.filter((_, i) => first[i] === order));
    return group.length > 0 ? medianInPlace(group, group.length) : 0;
  };
  const centres = { [1]: centreOf(1), [-1]: centreOf(-1) } as Record<number, number>;
  const centre = (i: number): number => centres[first[i]!]!;
  const bound = CLIP_FACTOR * robustSpread(Float64Array.from(logRatios, (d, i) => d - centre(i)));
  for (let i = 0; i < n; i++) y[i] = Math.min(centre(i) + bound, Math.max(centre(i) - bound, y[i]!));
  return y;
}

/**
 * The test's clip: to +- (median |d| + CLIP_FACTOR x the robust spread of |d|). The bound depends only on the sizes,
 * never on the signs, so every relabelling sees the same clipped sizes and the test stays exact. It is not a centre
 * (a centre depends on the signs, and a centre taken afresh for each relabelling pulls its flipped pairs back to it,
 * which leaves the test no power), but it follows where the test is: under a drop of 10% with pairs of 1% noise the
 * sizes sit near 0.1 and the bound near 0.15, so a hiccup of +2 counts as +0.15, where 5 x the median |d| let it
 * count as +0.5 and cancel the drop.
 */
export function clipAroundZero(logRatios: readonly number[]): Float64Array {
  const n = logRatios.length;
  if (n < 3) return Float64Array.from(logRatios);
  const sizes = Float64Array.from(logRatios, Math.abs);
  const bound = medianInPlace(Float64Array.from(sizes), n) + CLIP_FACTOR * robustSpread(sizes);
  return Float64Array.from(logRatios, (d) => Math.max(-bound, Math.min(bound, d)));
}

/**
 * A standard deviation that one hiccup cannot inflate: the larger of 1.4826 x MAD and IQR / 1.349 (each equals the sd
 * of normal noise), floored at MIN_LOG_SD. Either alone collapses on some shapes (the MAD when over half the pairs
 * agree exactly, as in + + - - patterns), and then every pair on the other side would look like an outlier.
 */
function robustSpread(residuals: Float64Array): number {
  const sorted = Float64Array.from(residuals).sort();
  const at = (q: number): number => {
    const pos = q * (sorted.length - 1);
    const lo = Math.floor(pos);
    return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (pos - lo);
  };
  const median = at(0.5);
  const deviations = Float64Array.from(sorted, (r) => Math.abs(r - median));
  return Math.max(1.4826 * medianInPlace(deviations, deviations.length), (at(0.75) - at(0.25)) / 1.349, MIN_LOG_SD);
}

/** The median of the first n values by selection (Hoare's quickselect); reorders them. */
function medianInPlace(a: Float64Array, n: number): number {
  const mid = n >> 1;
  const upper = select(a, n, mid);
  if (n % 2 === 1) return upper;
  let lower = -Infinity;
  for (let i = 0; i < mid; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}

/** Puts the k-th smallest of a[0..n) at a[k], smaller ones before it, and returns it. */
function select(a: Float64Array, n: number, k: number): number {
  let left = 0;
  let right = n - 1;
  while (left < right) {
    const pivot = a[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k]!;
}

interface SignVectorWalk {
  /**
   * Moves to sign vector k (asked for in order, 0 first: the labelling as measured) and writes each series' S and G
   * into sums.
   */
  next(k: number, data: readonly Relabelling[], sums: Float64Array): void;
  count: number;
  exhaustive: boolean;
}

/**
 * Every sign vector when there are few enough, in Gray-code order (each differs from the one before in one sign, so
 * S and G move by one term); otherwise the measured labelling plus seeded draws, 32 signs per draw. With draws the
 * p-value (1 + draws at least as extreme) / SIGN_VECTORS is still a valid p-value: the measured vector is one of them.
 */
function signVectorWalk(n: number, seed: number): SignVectorWalk {
  const signs = new Int8Array(n).fill(1);
  const measured = (data: readonly Relabelling[], sums: Float64Array): void => {
    signs.fill(1);
    data.forEach((x, j) => {
      sums[2 * j] = x.total;
      sums[2 * j + 1] = x.orders;
    });
  };
  if (2 ** n <= SIGN_VECTORS) {
    return {
      count: 2 ** n,
      exhaustive: true,
      next: (k, data, sums) => {
        if (k === 0) return measured(data, sums);
        const i = 31 - Math.clz32(k & -k);
        signs[i] = -signs[i]! as -1 | 1;
        for (let j = 0; j < data.length; j++) {
          sums[2 * j] = sums[2 * j]! + 2 * signs[i]! * data[j]!.d[i]!;
          sums[2 * j + 1] = sums[2 * j + 1]! + 2 * signs[i]! * data[j]!.first[i]!;
        }
      },
    };
  }
  const random = mulberry32(seed);
  return {
    count: SIGN_VECTORS,
    exhaustive: false,
    next: (k, data, sums) => {
      if (k === 0) return measured(data, sums);
      for (let i = 0; i < n; i += 32) {
        const bits = Math.floor(random() * 2 ** 32);
        for (let b = 0; b < 32 && i + b < n; b++) signs[i + b] = (bits >>> b) & 1 ? -1 : 1;
      }
      for (let j = 0; j < data.length; j++) {
        const { d, first } = data[j]!;
        let sum = 0;
        let orders = 0;
        for (let i = 0; i < n; i++) {
          sum += signs[i]! * d[i]!;
          orders += signs[i]! * first[i]!;
        }
        sums[2 * j] = sum;
        sums[2 * j + 1] = orders;
      }
    },
  };
}

/** The fewest sign vectors a test of n pairs has: the smallest p-value it can give is 1 over this. */
export function signVectorsOf(n: number): number {
  return Math.min(2 ** n, SIGN_VECTORS);
}
