// The paired verdict rule before issue 30 (max-T over every test at looks of 8, 12, 18, ... pairs, the family-wise ok
// bound, every test measured while any is open), kept for bench:sim to measure the new rule against, side by side on
// one pool. Nothing in src/ uses it.
import { criticalValue, signFlipMaxT, studentQuantile, type PairedKind } from '../../src/analysis/index.js';
import type { OrderedPairs } from '../../src/analysis/sign-flip.js';

/** One test's pairs in the order they were measured: log(QPS of C / QPS of B) and which side ran first, per sweep. */
export interface PairSeries extends OrderedPairs {
  key: string;
  test: string;
}

export interface SequentialSettings {
  /** The family-wise rate of false alarms (a drop called where there is none), spent over the looks. */
  alpha: number;
  /**
   * 1 - confidence is the chance, spent over the looks, that a lower end is above the truth: a false "ok" is half of
   * it.
   */
  confidence: number;
  /** The session's last look is at this many pairs; it fixes how many looks share alpha. */
  maxPairs: number;
  thresholdOf(test: string): number;
}

export interface PairedEstimate {
  pairs: number;
  /** The look that decided the test (1 = the first), or the last look taken for an undecided test. */
  look: number;
  /** exp(order-balanced mean log ratio). */
  relativeQps: number;
  /** The interval's lower end: a repeated confidence bound, family-wise over the tests, at (1 - confidence) / 2. */
  low: number;
  /** The upper end, at alpha (under 1 goes with a significant drop). Infinity when the look cannot reject. */
  high: number;
  /** Spread of one pair's log ratio around its order's mean: the noise of a pair on this host. */
  noise: number;
  /** How much faster (as a ratio) the second run of a pair was than the first; 1 = no order effect. */
  orderEffect: number;
  /** Standard error of log(relativeQps), the order-balanced one. */
  logSe: number;
  /** The smallest drop this look catches 4 times in 5, from its own critical value; 1 when the look cannot reject. */
  detectableDrop: number;
  pSlower: number;
  pFaster: number;
  /** The look's share of alpha, which pSlower is held against. */
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
  /** Tests not decided yet; while any is, every test of the session gets a pair in every sweep. */
  pending: string[];
  /** The pairs every test must reach before the next look. */
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

/** The pairs of each look a session of at most maxPairs pairs takes: 8, 12, 18, ... and maxPairs last. */
export function lookSchedule(maxPairs: number): number[] {
  const looks: number[] = [];
  for (let look = 1; pairsAtLook(look) < maxPairs; look++) looks.push(pairsAtLook(look));
  looks.push(maxPairs);
  return looks;
}

/**
 * The share of a rate spent at look l of `looks`: half at the first look, the other half split evenly over the rest.
 * The shares add up to the rate, so the chance of any false alarm over all looks is at most the rate (a union bound,
 * which holds however the looks depend on each other). Half goes first because most releases are decided there.
 */
export function alphaAtLook(rate: number, look: number, looks: number): number {
  if (looks <= 1) return rate;
  return look === 1 ? rate / 2 : rate / (2 * (looks - 1));
}

/**
 * Replays the looks of a sequential paired session over the pairs measured so far (docs/verdicts.md). Every look
 * judges the whole family of tests on their first n pairs with one max-T randomization test; its distribution gives
 * each test an interval that holds for all tests at once, at this look's share of alpha (upper end) and of
 * 1 - confidence (lower end). A significant drop with the estimate under the threshold is a regression, a significant
 * gain over 1/threshold an improvement, a lower end at or over the threshold ok; the rest wait for the next look.
 * With `final` (the budget is spent), a test still undecided is slower when its drop is significant (within the
 * margin, or not shown past it) and unstable otherwise. The same replay drives the session and judges it afterwards, so
 * they cannot differ.
 */
export function replayLooks(series: readonly PairSeries[], settings: SequentialSettings, final: boolean): LookReplay {
  const schedule = lookSchedule(settings.maxPairs);
  const decided: PairedJudgement[] = [];
  let pending = [...series];
  for (let look = 1; pending.length > 0; look++) {
    const wanted = schedule[Math.min(look, schedule.length) - 1]!;
    const available = Math.min(...pending.map((s) => s.logRatios.length));
    if (available < wanted && !final) return { decided, pending: pending.map((s) => s.key), nextPairs: wanted };
    const n = Math.min(wanted, available);
    // The whole family at every look: tests decided earlier are still measured and still counted in the maximum.
    // (A stored session from before every test was measured in every sweep may hold tests with fewer pairs: those
    // keep the verdicts of their own looks.)
    const family = series.filter((s) => s.logRatios.length >= n);
    const judged = judgeLook(family, n, look, schedule.length, settings);
    const lastLook = (final && pending.every((s) => s.logRatios.length <= n)) || look >= schedule.length || n < 2;
    const open = new Set(pending.map((s) => s.key));
    for (const j of judged) {
      if (!open.has(j.key)) continue;
      if (j.kind !== 'unstable') decided.push(j);
      else if (lastLook) decided.push({ ...j, kind: j.pSlower <= j.alphaSpent ? 'slower' : 'unstable' });
    }
    pending = pending.filter((s) => !decided.some((d) => d.key === s.key));
    if (lastLook) pending = [];
  }
  return { decided, pending: [], nextPairs: 0 };
}

function judgeLook(
  family: readonly PairSeries[],
  n: number,
  look: number,
  looks: number,
  settings: SequentialSettings,
): PairedJudgement[] {
  const slices = family.map((s) => ({
    logRatios: s.logRatios.slice(0, n),
    baselineFirst: s.baselineFirst.slice(0, n),
  }));
  const test = signFlipMaxT(slices, look);
  const alphaSpent = alphaAtLook(settings.alpha, look, looks);
  const upper = criticalValue(test.maxDrops, alphaSpent);
  const lower = criticalValue(test.maxDrops, alphaAtLook((1 - settings.confidence) / 2, look, looks));
  return family.map((s, j) => {
    const stat = test.observed[j]!;
    const reach =
      Number.isFinite(upper) && n > 2 ? (upper + studentQuantile(POWER, n - 2)) * stat.se : Number.POSITIVE_INFINITY;
    const estimate: PairedEstimate = {
      pairs: n,
      look,
      relativeQps: Math.exp(stat.estimate),
      low: Number.isFinite(lower) ? Math.exp(stat.estimate - lower * stat.se) : 0,
      high: Number.isFinite(upper) ? Math.exp(stat.estimate + upper * stat.se) : Number.POSITIVE_INFINITY,
      noise: stat.noise,
      orderEffect: Math.exp(stat.orderEffect),
      logSe: stat.se,
      detectableDrop: Number.isFinite(reach) ? 1 - Math.exp(-reach) : 1,
      pSlower: test.slower[j]!,
      pFaster: test.faster[j]!,
      alphaSpent,
    };
    return { key: s.key, test: s.test, kind: classifyPaired(estimate, settings.thresholdOf(s.test)), ...estimate };
  });
}

/**
 * What a look decides; "unstable" here means "not yet": more pairs, or the budget's end. A drop or a gain counts when
 * the exact test finds it at the look's share of alpha; "ok" when the interval's lower end clears the threshold.
 */
export function classifyPaired(
  e: Pick<PairedEstimate, 'relativeQps' | 'low' | 'pSlower' | 'pFaster' | 'alphaSpent'>,
  threshold: number,
): PairedKind {
  if (e.relativeQps < threshold && e.pSlower <= e.alphaSpent) return 'regression';
  if (e.relativeQps > 1 / threshold && e.pFaster <= e.alphaSpent) return 'improvement';
  if (e.low >= threshold) return 'ok';
  return 'unstable';
}
