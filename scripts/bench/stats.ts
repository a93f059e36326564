import { median, mulberry32 } from '../../src/analysis/index.js';

/** The QPS of one run without qpswatch's samplers and one run with them, taken back to back. */
export interface RunPair {
  without: number;
  with: number;
}

export interface Interval {
  low: number;
  high: number;
}

export interface BootstrapOptions {
  resamples?: number;
  /** 0.95 for a 95% interval. */
  confidence?: number;
  /** The same runs always give the same interval. */
  seed?: number;
}

/** A run whose QPS is not a positive finite number cannot be in a ratio; a bug upstream, said out loud. */
export class BenchDataError extends Error {
  constructor(
    readonly index: number,
    readonly value: number,
  ) {
    super(`run pair ${index + 1} has QPS ${value}: expected a positive finite number (check the sysbench log)`);
    this.name = new.target.name;
  }
}

export function checkPairs(pairs: readonly RunPair[]): void {
  if (pairs.length === 0) throw new RangeError('no run pairs: expected at least one');
  pairs.forEach((p, i) => {
    for (const v of [p.without, p.with]) if (!Number.isFinite(v) || v <= 0) throw new BenchDataError(i, v);
  });
}

/** What `qpswatch compare` reports: median(with) / median(without). */
export function ratioOfMedians(pairs: readonly RunPair[]): number {
  checkPairs(pairs);
  return median(pairs.map((p) => p.with)) / median(pairs.map((p) => p.without));
}

/**
 * The paired estimate: the median of each pair's with/without. A pair's two runs are seconds apart, so host noise
 * slower than that cancels in its ratio; the median shrugs off the pairs a burst of other work hit in one run only.
 */
export function medianPairRatio(pairs: readonly RunPair[]): number {
  checkPairs(pairs);
  return median(pairs.map((p) => p.with / p.without));
}

/**
 * Percentile bootstrap over whole pairs: resampling pairs (not runs) keeps each pair's two runs together, so the
 * interval reflects the noise the pairing leaves, not the drift it removes.
 */
export function bootstrapInterval(
  pairs: readonly RunPair[],
  statistic: (pairs: readonly RunPair[]) => number,
  opts: BootstrapOptions = {},
): Interval {
  checkPairs(pairs);
  const resamples = opts.resamples ?? 10_000;
  const confidence = opts.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 100)
    throw new RangeError(`bootstrap resamples must be a whole number >= 100, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`bootstrap confidence must be between 0 and 1, got ${confidence}`);
  const random = seededRandom(opts.seed ?? 1);
  const values: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const sample = pairs.map(() => pairs[Math.floor(random() * pairs.length)]!);
    values.push(statistic(sample));
  }
  values.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return { low: values[Math.floor(tail * resamples)]!, high: values[Math.ceil((1 - tail) * resamples) - 1]! };
}

/** mulberry32 (the analysis room's): a small, fast generator whose sequence depends only on the seed. */
export const seededRandom = mulberry32;

/** Where a goal (e.g. ratio >= 0.99) stands against an interval: met, missed, or not resolved by the noise. */
export function judgeGoal(interval: Interval, goal: number): 'met' | 'missed' | 'within noise' {
  if (interval.low >= goal) return 'met';
  if (interval.high < goal) return 'missed';
  return 'within noise';
}

/** The value below which `p` of the values lie (0 <= p <= 1), interpolated between neighbours. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('quantile of an empty list');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile p must be between 0 and 1, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Half the interquartile range over the median: the middle half of the values lies within about +- this share. */
export function middleHalfSpread(values: readonly number[]): number {
  const mid = median(values);
  if (!(mid > 0)) throw new RangeError(`middle-half spread needs a positive median, got ${mid}`);
  return (quantile(values, 0.75) - quantile(values, 0.25)) / 2 / mid;
}
