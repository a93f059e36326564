import { MIN_LOG_SD, type OrderedPairs } from './sign-flip.js';

/**
 * One test's pairs with the pair of server instances each was measured on: `blocks[i]` numbers the instance pair of
 * pair i (0, 1, ... in the order measured). Pairs of one block share the two instances' offsets.
 */
export interface BlockedPairs extends OrderedPairs {
  blocks: readonly number[];
}

/** Huber's constant: 95% of the mean's efficiency on normal noise, and a pair far out counts as this many scales. */
export const HUBER_C = 1.345;

/**
 * The scores are counted in steps of the scale / SCORE_STEPS, so the test's statistic is a whole number and its exact
 * distribution over all 2^k sign vectors is a convolution of k two-point steps: every sign vector is counted, at any
 * number of blocks, in k x (the range of the sum) operations. A step of 1/16 of a scale changes the statistic by less
 * than the Huber clip's own rounding ever matters to a decision.
 */
export const SCORE_STEPS = 16;

/**
 * At most this many steps of the count (blocks x the range of the sum): past it, as with hundreds of blocks, the
 * scores are counted in coarser steps, so a p-value never costs more than a few milliseconds. The count stays exact
 * for the statistic it counts.
 */
const MAX_COUNT_WORK = 400_000;

/**
 * The statistic of a test's pairs at a hypothesised log ratio theta, ready for the randomization test.
 *
 * Under "the log ratio is theta" the two instances of a block are exchangeable, and so are the labels of every pair
 * in it: relabelling a block turns each of its values r_i - theta into its negative, all at once. The score of a block
 * is the sum of Huber's psi over its pairs, which is odd, so relabelling a block negates its score and the test of a
 * relabelling is a sum of the block scores with signs: S(g) = sum g_k a_k.
 *
 * What the scores are computed from must not change under relabelling, or the test would not be exact: the order
 * effect is estimated from f_i clip(d_i) (a relabelled pair changes the sign of both), and the scale from |r_i -
 * theta|.
 */
export interface BlockScores {
  /** a_k per block, in log units (a score of psi times the scale). */
  scores: Float64Array;
  /** The observed statistic: the sum of the scores. */
  observed: number;
  scale: number;
  /**
   * What the observed sum is taken at against the sign vectors: sqrt((n - 1) / n) when the order effect was estimated
   * from the same n pairs, else 1. The estimate takes one degree of freedom from the spread the sign vectors see
   * (their sums vary as the sum of r_i^2, about (n - 1) s^2) but not from the observed sum's (about n s^2); without
   * it a test at 1.25% called about 1.4% in simulation.
   */
  shrink: number;
}

/** The pairs less the order effect: d_i - o f_i, with o from values that relabelling leaves alone. */
export function orderCorrected(pairs: OrderedPairs): { values: Float64Array; orderEffect: number; fitted: boolean } {
  const n = pairs.logRatios.length;
  const first = Float64Array.from(pairs.baselineFirst, (b) => (b ? 1 : -1));
  const orders = first.reduce((a, f) => a + f, 0);
  // Pairs all in one order (a session stored before the orders alternated) have no order effect to take out.
  if (n < 3 || Math.abs(orders) >= n - 0.5)
    return { values: Float64Array.from(pairs.logRatios), orderEffect: 0, fitted: false };
  const bound = sizeBound(pairs.logRatios);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += first[i]! * clip(pairs.logRatios[i]!, bound);
  const orderEffect = sum / n;
  return {
    values: Float64Array.from(pairs.logRatios, (d, i) => d - orderEffect * first[i]!),
    orderEffect,
    fitted: true,
  };
}

/**
 * A bound on the sizes |d| that a hiccup cannot move far: the median size plus 5 robust spreads of the sizes. It reads
 * only sizes, so it is the same for every relabelling.
 */
function sizeBound(logRatios: readonly number[]): number {
  const sizes = Float64Array.from(logRatios, Math.abs).sort();
  const median = quantileSorted(sizes, 0.5);
  const spread = Math.max((quantileSorted(sizes, 0.75) - quantileSorted(sizes, 0.25)) / 1.349, MIN_LOG_SD);
  return median + 5 * spread;
}

const clip = (x: number, bound: number): number => Math.max(-bound, Math.min(bound, x));
const psi = (z: number): number => Math.max(-HUBER_C, Math.min(HUBER_C, z));

/** The block scores at theta of order-corrected values (orderCorrected), with their block of each. */
export function blockScores(
  values: Float64Array,
  blocks: readonly number[],
  theta: number,
  fitted = false,
): BlockScores {
  const { ids, count } = denseBlocks(blocks);
  const sizes = Float64Array.from(values, (r) => Math.abs(r - theta)).sort();
  const scale = Math.max(1.4826 * quantileSorted(sizes, 0.5), MIN_LOG_SD);
  const scores = new Float64Array(count);
  let observed = 0;
  for (let i = 0; i < values.length; i++) {
    const a = scale * psi((values[i]! - theta) / scale);
    scores[ids[i]!] = scores[ids[i]!]! + a;
    observed += a;
  }
  const n = values.length;
  return { scores, observed, scale, shrink: fitted && n > 1 ? Math.sqrt((n - 1) / n) : 1 };
}

/**
 * The randomization p-value that the truth is below theta (side 'less') or above it ('greater'): the share of all 2^k
 * sign vectors g whose sum of g_k a_k is at least as extreme as the observed sum, counted exactly (see SCORE_STEPS).
 */
export function flipPValue(s: BlockScores, side: 'less' | 'greater'): number {
  return flipPValues(s)[side];
}

/** Both one-sided p-values of flipPValue from one count of the sign vectors. */
export function flipPValues(s: BlockScores): { less: number; greater: number } {
  const total = s.scores.reduce((a, x) => a + Math.abs(x), 0);
  const step = Math.max(s.scale / SCORE_STEPS, (total * s.scores.length) / MAX_COUNT_WORK);
  // Rounded half away from zero, so a relabelled block's rounded score is exactly the negative of its own.
  const q = Array.from(s.scores, (a) => Math.sign(a) * Math.round(Math.abs(a) / step));
  const observed = q.reduce((a, x) => a + x, 0) * (s.shrink ?? 1);
  const range = q.reduce((a, x) => a + Math.abs(x), 0);
  // dist[range + v]: the share of sign vectors, over the blocks so far, whose sum is v.
  let dist = new Float64Array(2 * range + 1);
  let next = new Float64Array(2 * range + 1);
  dist[range] = 1;
  let reach = 0;
  for (const x of q) {
    const size = Math.abs(x);
    if (size === 0) continue;
    next.fill(0, range - reach - size, range + reach + size + 1);
    for (let v = range - reach; v <= range + reach; v++) {
      const p = dist[v]!;
      if (p === 0) continue;
      next[v + size] = next[v + size]! + p / 2;
      next[v - size] = next[v - size]! + p / 2;
    }
    [dist, next] = [next, dist];
    reach += size;
  }
  // By symmetry P(S >= observed) = P(S <= -observed).
  const atMost = (limit: number): number => {
    let share = 0;
    const last = Math.min(Math.floor(limit + 1e-9), reach);
    for (let v = -reach; v <= last; v++) share += dist[range + v]!;
    return Math.min(1, share);
  };
  return { less: atMost(observed), greater: atMost(-observed) };
}

/** The smallest p-value a test of this many blocks can give. */
export function smallestFlipP(blocks: number): number {
  return 2 ** -blocks;
}

/** What a test's pairs say as an estimate: Huber's M-estimate with a standard error that counts the instances. */
export interface HuberEstimate {
  /** The log ratio: Huber's M-estimate of the order-corrected pairs. */
  estimate: number;
  /** The order effect (log): how much faster the second run of a pair was. */
  orderEffect: number;
  /**
   * Standard error from the spread of the blocks' scores (a sandwich over blocks), so an offset between instances
   * counts as the noise it is; Infinity under 2 blocks.
   */
  se: number;
  /** Degrees of freedom of that error: blocks - 1. */
  df: number;
  blocks: number;
}

/** Huber's M-estimate of the pairs' log ratio, by Newton steps from the median at a fixed scale (MAD). */
export function huberEstimate(pairs: BlockedPairs): HuberEstimate {
  const { values, orderEffect } = orderCorrected(pairs);
  const n = values.length;
  const { ids, count: k } = denseBlocks(pairs.blocks);
  if (n === 0) return { estimate: 0, orderEffect, se: Number.POSITIVE_INFINITY, df: 0, blocks: 0 };
  const sorted = Float64Array.from(values).sort();
  let mu = quantileSorted(sorted, 0.5);
  const scale = Math.max(
    1.4826 * quantileSorted(Float64Array.from(values, (r) => Math.abs(r - mu)).sort(), 0.5),
    MIN_LOG_SD,
  );
  for (let step = 0; step < 50; step++) {
    let [sum, inside] = [0, 0];
    for (const r of values) {
      const z = (r - mu) / scale;
      sum += psi(z);
      if (Math.abs(z) <= HUBER_C) inside++;
    }
    const move = (scale * sum) / Math.max(inside, 1);
    mu += move;
    if (Math.abs(move) < 1e-10) break;
  }
  const perBlock = new Float64Array(k);
  let inside = 0;
  for (let i = 0; i < n; i++) {
    const z = (values[i]! - mu) / scale;
    perBlock[ids[i]!] = perBlock[ids[i]!]! + scale * psi(z);
    if (Math.abs(z) <= HUBER_C) inside++;
  }
  if (k < 2) return { estimate: mu, orderEffect, se: Number.POSITIVE_INFINITY, df: 0, blocks: k };
  const squares = perBlock.reduce((a, u) => a + u * u, 0);
  // Every pair clipped (a handful of wild pairs): count them all, not none, so the error stays finite.
  const se = Math.max(Math.sqrt((k / (k - 1)) * squares) / Math.max(inside, n / 2), MIN_LOG_SD / Math.sqrt(n));
  return { estimate: mu, orderEffect, se, df: k - 1, blocks: k };
}

/** The blocks a test's pairs were measured in, numbered 0, 1, ... without gaps (a test need not be in every block). */
export function denseBlocks(blocks: readonly number[]): { ids: Int32Array; count: number } {
  const seen = new Map<number, number>();
  const ids = Int32Array.from(blocks, (b) => {
    let id = seen.get(b);
    if (id === undefined) seen.set(b, (id = seen.size));
    return id;
  });
  return { ids, count: seen.size };
}

function quantileSorted(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (pos - lo);
}

/**
 * The bound on theta that a one-sided test at `level` puts on the log ratio: for 'lower' the largest theta whose
 * "the truth is at most theta" the pairs reject (so the truth is above it), for 'upper' the smallest theta whose "at
 * least theta" they reject. Found by bisection on the test itself, so a bound and the test's own decision agree.
 * -Infinity (lower) or Infinity (upper) when no theta can be rejected at that level.
 */
export function flipBound(
  values: Float64Array,
  blocks: readonly number[],
  level: number,
  side: 'lower' | 'upper',
  around: { estimate: number; se: number },
  fitted = false,
): number {
  const { count } = denseBlocks(blocks);
  if (smallestFlipP(count) > level + 1e-12) return side === 'lower' ? -Infinity : Infinity;
  const rejects = (theta: number): boolean =>
    flipPValue(blockScores(values, blocks, theta, fitted), side === 'lower' ? 'greater' : 'less') <= level + 1e-12;
  const width = Number.isFinite(around.se) ? Math.max(around.se, MIN_LOG_SD) : 1;
  // Walk out from the estimate until the test rejects, then bisect between the last that did not and the first that
  // did.
  const direction = side === 'lower' ? -1 : 1;
  let inner = around.estimate;
  let outer = around.estimate + direction * width;
  for (let step = 0; !rejects(outer); step++) {
    if (step > 40) return side === 'lower' ? -Infinity : Infinity;
    inner = outer;
    outer = around.estimate + direction * width * 2 ** (step + 1);
  }
  // To a thousandth of the standard error: far finer than any figure is printed.
  while (Math.abs(outer - inner) > width / 1000) {
    const mid = (inner + outer) / 2;
    if (rejects(mid)) outer = mid;
    else inner = mid;
  }
  return outer;
}
