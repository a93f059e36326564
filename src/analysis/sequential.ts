import { MIN_LOG_SD, signFlipMaxT } from './sign-flip.js';
import { studentQuantile } from './student-t.js';

/** One test's pairs in the order they were measured: log(QPS of C / QPS of B), one per sweep. */
export interface PairSeries {
  key: string;
  test: string;
  logRatios: readonly number[];
}

export interface SequentialSettings {
  /** The family-wise false-alarm rate of the whole session, spent over its looks. */
  alpha: number;
  /** Of the interval reported per test; "ok" needs its lower end above the threshold. */
  confidence: number;
  thresholdOf(test: string): number;
}

export type PairedKind = 'ok' | 'regression' | 'improvement' | 'unstable';

export interface PairedEstimate {
  pairs: number;
  /** The look that decided the test (1 = the first), or the last look taken for an undecided test. */
  look: number;
  /** exp(mean log ratio): the geometric mean of C/B over the pairs. */
  relativeQps: number;
  low: number;
  high: number;
  /** Standard deviation of one pair's log ratio: the noise of a pair on this host. */
  noise: number;
  /** The smallest drop this many pairs catch 4 times in 5 at the look's share of alpha. */
  detectableDrop: number;
  pSlower: number;
  pFaster: number;
  /** The look's share of alpha, which pSlower and pFaster are held against. */
  alphaSpent: number;
}

export interface PairedJudgement extends PairedEstimate {
  key: string;
  test: string;
  kind: PairedKind;
}

export interface LookReplay {
  /** Tests decided so far (every test when the session is final). */
  decided: PairedJudgement[];
  /** Tests that need more pairs; each still measured must reach `nextPairs`. */
  pending: string[];
  nextPairs: number;
}

const FIRST_LOOK = 8;
const LOOK_GROWTH = 1.5;
const POWER = 0.8;

/**
 * Pairs at look l (1-based): 8, 12, 18, 27, 41, ... Eight pairs is the fewest at which the sign-flip test can go
 * below the first look's alpha (1/256 < 0.005 at alpha 0.01); each later look adds half again.
 */
export function pairsAtLook(look: number): number {
  return Math.round(FIRST_LOOK * LOOK_GROWTH ** (look - 1));
}

/** Alpha spent at look l: alpha/2, alpha/4, ... adds up to alpha however many looks a session takes. */
export function alphaAtLook(alpha: number, look: number): number {
  return alpha / 2 ** look;
}

/**
 * Replays the looks of a sequential paired session over the pairs measured so far. At each look every test still
 * open is judged on its first n pairs: a significant drop under the threshold is a regression, a significant gain
 * over 1/threshold an improvement, an interval whose lower end clears the threshold is ok; the rest go on to the
 * next look. With `final` (the budget is spent), a test that was not decided is unstable, with its interval and
 * detectable drop as they stand. The same replay drives the session (which tests to measure next) and judges it
 * afterwards, so what is stored and what was decided while measuring cannot differ.
 */
export function replayLooks(series: readonly PairSeries[], settings: SequentialSettings, final: boolean): LookReplay {
  const decided: PairedJudgement[] = [];
  let pending = [...series];
  for (let look = 1; pending.length > 0; look++) {
    const wanted = pairsAtLook(look);
    const available = Math.min(...pending.map((s) => s.logRatios.length));
    if (available < wanted && !final) return { decided, pending: pending.map((s) => s.key), nextPairs: wanted };
    const n = Math.min(wanted, available);
    const judged = judgeLook(pending, n, look, settings);
    // The session's last look is the one past which no open test has pairs; a test decided at an earlier look has
    // fewer pairs than those still open, and must not end the replay for them.
    const lastLook = final && pending.every((s) => s.logRatios.length <= n);
    for (const j of judged) if (j.kind !== 'unstable' || lastLook) decided.push(j);
    pending = pending.filter((s) => !decided.some((d) => d.key === s.key));
    if (lastLook || n < 2) {
      decided.push(...judged.filter((j) => pending.some((s) => s.key === j.key)));
      pending = [];
    }
  }
  return { decided, pending: [], nextPairs: 0 };
}

function judgeLook(series: readonly PairSeries[], n: number, look: number, settings: SequentialSettings): PairedJudgement[] {
  const alphaSpent = alphaAtLook(settings.alpha, look);
  const slices = series.map((s) => clipOutliers(s.logRatios.slice(0, n)));
  const test = signFlipMaxT(slices, look);
  return series.map((s, j) => {
    const estimate = estimatePairs(slices[j]!, { alphaSpent, family: series.length, confidence: settings.confidence });
    const full: PairedEstimate = { ...estimate, look, pSlower: test.slower[j]!, pFaster: test.faster[j]! };
    return { key: s.key, test: s.test, kind: classifyPaired(full, settings.thresholdOf(s.test)), ...full };
  });
}

/** Pairs further from 0 than this many times the median |log ratio| are clipped to that distance. */
const CLIP_FACTOR = 5;

/**
 * One pair hit by a host hiccup (a log ratio of -2 among pairs of +-0.05) would otherwise widen the interval of its
 * test to nothing. The bound depends only on the sizes of the log ratios, never on their signs, so every sign vector
 * of the randomization test sees the same clipped values and the test stays exact.
 */
export function clipOutliers(logRatios: readonly number[]): number[] {
  const sizes = logRatios.map(Math.abs).sort((a, b) => a - b);
  if (sizes.length === 0) return [];
  const mid = Math.floor(sizes.length / 2);
  const medianSize = sizes.length % 2 === 1 ? sizes[mid]! : (sizes[mid - 1]! + sizes[mid]!) / 2;
  const bound = CLIP_FACTOR * medianSize;
  if (!(bound > 0)) return [...logRatios];
  return logRatios.map((d) => Math.max(-bound, Math.min(bound, d)));
}

/** What a look decides; "unstable" here means "not yet": more pairs, or the budget's end. */
export function classifyPaired(e: Pick<PairedEstimate, 'relativeQps' | 'low' | 'pSlower' | 'pFaster' | 'alphaSpent'>, threshold: number): PairedKind {
  if (e.relativeQps < threshold && e.pSlower <= e.alphaSpent) return 'regression';
  if (e.relativeQps > 1 / threshold && e.pFaster <= e.alphaSpent) return 'improvement';
  if (e.low >= threshold) return 'ok';
  return 'unstable';
}

interface EstimateSettings {
  alphaSpent: number;
  /** How many tests share the look's alpha: the detectable drop uses a Bonferroni share of it. */
  family: number;
  confidence: number;
}

/**
 * Interval and detectable drop from Student's t of the mean log ratio. The detectable drop is the drop at which a
 * one-sided test at alpha/family would come out significant 4 times in 5 (Bonferroni bounds the max-T test's
 * critical value, so the real test catches at least this much).
 */
export function estimatePairs(logRatios: readonly number[], s: EstimateSettings): Omit<PairedEstimate, 'look' | 'pSlower' | 'pFaster'> {
  const n = logRatios.length;
  const mean = logRatios.reduce((a, d) => a + d, 0) / Math.max(n, 1);
  const noise = n > 1 ? Math.sqrt(logRatios.reduce((a, d) => a + (d - mean) ** 2, 0) / (n - 1)) : Number.NaN;
  if (n < 2) return { pairs: n, relativeQps: Math.exp(mean), low: 0, high: Number.POSITIVE_INFINITY, noise, detectableDrop: 1, alphaSpent: s.alphaSpent };
  const se = Math.max(noise, MIN_LOG_SD) / Math.sqrt(n);
  return { pairs: n, noise, alphaSpent: s.alphaSpent, ...intervalAndReach(mean, se, n - 1, s.alphaSpent / s.family, s.confidence) };
}

/**
 * For a mean log ratio with its standard error: relative QPS, its interval at `confidence`, and the drop a one-sided
 * test at `alpha` would catch with 80% power, all from Student's t with `df` degrees of freedom.
 */
export function intervalAndReach(mean: number, se: number, df: number, alpha: number, confidence: number): { relativeQps: number; low: number; high: number; detectableDrop: number } {
  const half = studentQuantile(1 - (1 - confidence) / 2, df) * se;
  const reach = (studentQuantile(1 - alpha, df) + studentQuantile(POWER, df)) * se;
  return { relativeQps: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), detectableDrop: 1 - Math.exp(-reach) };
}
