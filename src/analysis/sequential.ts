import {
  blockScores,
  denseBlocks,
  flipBound,
  flipPValue,
  flipPValues,
  huberEstimate,
  orderCorrected,
  smallestFlipP,
  type BlockedPairs,
  type HuberEstimate,
} from './block-flip.js';
import { lookPlan, type LookPlan } from './look-plan.js';
import { pairStatistic } from './sign-flip.js';
import { studentQuantile } from './student-t.js';

/**
 * One test's pairs in the order they were measured: log(QPS of C / QPS of B), which side ran first, and the block
 * (the pair of server instances) of each pair, numbered across the session.
 */
export interface PairSeries extends BlockedPairs {
  key: string;
  test: string;
}

export interface SequentialSettings {
  /** The family-wise rate of false alarms (a drop called where there is none) over all tests and looks. */
  alpha: number;
  /** Per test, 1 - confidence is twice the chance of a false "ok" at the margin, spent over the looks. */
  confidence: number;
  /** The blocks the session's budget pays for: the looks are planned on them. */
  plannedBlocks: number;
  thresholdOf(test: string): number;
  /**
   * Looks fixed otherwise than lookPlan fixes them (bench:sim --looks weighs other plans): any blocks and shares
   * fixed before the first pair, the shares adding up to at most 1, keep every guarantee. Sessions never set it.
   */
  plan?: LookPlan;
}

export type PairedKind = 'ok' | 'regression' | 'improvement' | 'slower' | 'unstable';

export interface PairedEstimate {
  pairs: number;
  /** Blocks (pairs of server instances) the pairs came from. */
  blocks: number;
  /** The look that decided the test (1 = the first), or the last look taken for an undecided test. */
  look: number;
  /** exp(Huber's M-estimate of the order-corrected log ratios). */
  relativeQps: number;
  /** The interval's lower end: the test's inversion at the look's share of (1 - confidence) / 2, per test. */
  low: number;
  /** The upper end, at the look's share of alpha / tests. Infinity when the look cannot reject. */
  high: number;
  /** Spread of one pair's log ratio around its order's mean: the noise of a pair on this host. */
  noise: number;
  /** How much faster (as a ratio) the second run of a pair was than the first; 1 = no order effect. */
  orderEffect: number;
  /** Standard error of log(relativeQps), over blocks (instance offsets count), with blocks - 1 degrees of freedom. */
  logSe: number;
  /** The degrees of freedom of logSe: blocks - 1 (0 under 2 blocks, where logSe is Infinity). */
  logSeDf: number;
  /**
   * The smallest drop this look catches 4 times in 5: significant and under the threshold alike; 1 when the look
   * cannot reject.
   */
  detectableDrop: number;
  /** The test's p-value of a drop over its looks so far: min over looks of p / the look's share. */
  pSlower: number;
  pFaster: number;
  /** The level pSlower was held against: Holm's alpha / (tests not yet rejected), as the step-down reached it. */
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
  /** Tests not decided yet: only these get pairs in the next sweeps. */
  pending: string[];
  /** The blocks the session must close before the next look. */
  nextBlocks: number;
}

const POWER = 0.8;

/** A test while the looks are replayed: its sequential p-values so far and its verdict once it has one. */
interface TestState {
  series: PairSeries;
  slower: number;
  faster: number;
  decided?: PairedJudgement;
}

/**
 * Replays the looks of a paired session over the pairs measured so far (docs/verdicts.md). At each look every open
 * test is judged on its pairs of the first k blocks by an exact randomization test (block-flip.ts): a drop or a gain
 * is significant by Holm's step-down over all the session's tests on their sequential p-values (the smallest over
 * the test's looks of p / the look's share), which keeps the family-wise rate of false alarms at alpha; a test is ok
 * when its own test rejects "a drop past the threshold" at the look's share of (1 - confidence) / 2. A decided test
 * keeps its verdict and gets no more pairs. `completeBlocks` is how many blocks the session has closed; with `final`
 * (the budget is spent) the blocks measured so far make the last look, where an open test is slower when its drop is
 * significant and unstable otherwise. The same replay drives the session and judges it afterwards.
 */
export function replayLooks(
  series: readonly PairSeries[],
  settings: SequentialSettings,
  final: boolean,
  completeBlocks: number = measuredBlocks(series),
): LookReplay {
  const plan = settings.plan ?? lookPlan(settings.plannedBlocks, series.length, settings.alpha);
  const states: TestState[] = series.map((s) => ({ series: s, slower: Infinity, faster: Infinity }));
  const available = final ? Math.max(completeBlocks, measuredBlocks(series)) : completeBlocks;
  for (let look = 1; look <= plan.blocks.length; look++) {
    const wanted = plan.blocks[look - 1]!;
    if (available < wanted && !final) return replayState(states, wanted);
    const k = Math.min(wanted, available);
    const last = look === plan.blocks.length || (final && available <= wanted);
    judgeLook(states, k, look, plan, settings, last);
    if (last || states.every((s) => s.decided !== undefined)) break;
  }
  return replayState(states, 0);
}

function replayState(states: readonly TestState[], nextBlocks: number): LookReplay {
  const decided = states.flatMap((s) => (s.decided !== undefined ? [s.decided] : []));
  const pending = states.filter((s) => s.decided === undefined).map((s) => s.series.key);
  return { decided, pending, nextBlocks: pending.length > 0 ? nextBlocks : 0 };
}

/** Blocks measured in the session: one more than the highest block number of any pair. */
export function measuredBlocks(series: readonly PairSeries[]): number {
  return series.reduce((a, s) => Math.max(a, ...s.blocks.map((b) => b + 1)), 0);
}

/** The first pairs of a series that lie in the first k blocks of the session. */
function firstBlocks(s: PairSeries, k: number): PairSeries {
  let n = 0;
  while (n < s.blocks.length && s.blocks[n]! < k) n++;
  return {
    ...s,
    logRatios: s.logRatios.slice(0, n),
    baselineFirst: s.baselineFirst.slice(0, n),
    blocks: s.blocks.slice(0, n),
  };
}

interface LookFacts {
  pairs: PairSeries;
  slower: number;
  faster: number;
  ok: number;
  estimate: HuberEstimate;
}

function judgeLook(
  states: TestState[],
  k: number,
  look: number,
  plan: LookPlan,
  settings: SequentialSettings,
  last: boolean,
): void {
  const share = plan.shares[look - 1]!;
  const family = states.length;
  const facts = new Map<TestState, LookFacts>();
  for (const state of states) {
    if (state.decided !== undefined) continue;
    const pairs = firstBlocks(state.series, k);
    if (pairs.logRatios.length === 0) continue;
    const f = lookFacts(pairs, settings.thresholdOf(pairs.test));
    facts.set(state, f);
    state.slower = Math.min(state.slower, f.slower / share);
    state.faster = Math.min(state.faster, f.faster / share);
  }
  const slowerLevels = holm(
    states.map((s) => s.slower),
    settings.alpha,
  );
  const fasterLevels = holm(
    states.map((s) => s.faster),
    settings.alpha,
  );
  const okLevel = (share * (1 - settings.confidence)) / 2;
  states.forEach((state, j) => {
    const f = facts.get(state);
    if (f === undefined) return;
    const threshold = settings.thresholdOf(state.series.test);
    const slowerLevel = slowerLevels[j]!;
    const kind = classify({
      estimate: f.estimate.estimate,
      threshold,
      significantDrop: state.slower <= slowerLevel.level && slowerLevel.rejected,
      significantGain: state.faster <= fasterLevels[j]!.level && fasterLevels[j]!.rejected,
      ok: f.ok <= okLevel + 1e-15,
      last,
    });
    if (kind === 'open') return;
    // A significant drop's upper end is inverted at the Holm level it was rejected at (this look's share of it: the
    // levels are of the sequential p-values); others keep Bonferroni's first step.
    const bonferroni = (settings.alpha * share) / family;
    const upper = slowerLevel.rejected ? Math.max(bonferroni, slowerLevel.level * share) : bonferroni;
    const figures = estimateOf(f, look, { slower: bonferroni, upper, ok: okLevel }, threshold);
    state.decided = {
      key: state.series.key,
      test: state.series.test,
      // Slower says the upper end is under 1 (docs/verdicts.md). A drop significant at an earlier look whose last
      // look's interval reaches 1 is unstable instead: calling fewer tests slower costs no false alarm.
      kind: kind === 'slower' && figures.high >= 1 ? 'unstable' : kind,
      ...figures,
      pSlower: Math.min(1, state.slower),
      pFaster: Math.min(1, state.faster),
      alphaSpent: slowerLevel.level,
    };
  });
}

/** What one look needs of a test: its three p-values (drop, gain, drop past the threshold) and its estimate. */
function lookFacts(pairs: PairSeries, threshold: number): LookFacts {
  const { values, fitted } = orderCorrected(pairs);
  const atZero = flipPValues(blockScores(values, pairs.blocks, 0, fitted));
  const atThreshold = blockScores(values, pairs.blocks, Math.log(threshold), fitted);
  return {
    pairs,
    slower: atZero.less,
    faster: atZero.greater,
    ok: flipPValue(atThreshold, 'greater'),
    estimate: huberEstimate(pairs),
  };
}

interface Evidence {
  estimate: number;
  threshold: number;
  significantDrop: boolean;
  significantGain: boolean;
  ok: boolean;
  last: boolean;
}

function classify(e: Evidence): PairedKind | 'open' {
  if (e.significantDrop && e.estimate < Math.log(e.threshold)) return 'regression';
  if (e.significantGain && e.estimate > -Math.log(e.threshold)) return 'improvement';
  if (e.ok) return 'ok';
  if (!e.last) return 'open';
  return e.significantDrop ? 'slower' : 'unstable';
}

/**
 * Holm's step-down over the tests' sequential p-values: sorted ascending, the r-th (from 0) is rejected at alpha / (m
 * - r) while every one before it was. Per test: the level it was held against and whether it was rejected; a test past
 * the first that failed is held against that one's level.
 */
export function holm(p: readonly number[], alpha: number): Array<{ level: number; rejected: boolean }> {
  const m = p.length;
  const order = p.map((_, j) => j).sort((a, b) => p[a]! - p[b]!);
  const out = p.map(() => ({ level: alpha / Math.max(m, 1), rejected: false }));
  let stopLevel: number | undefined;
  order.forEach((j, r) => {
    const level = alpha / (m - r);
    if (stopLevel === undefined && p[j]! <= level) out[j] = { level, rejected: true };
    else {
      stopLevel ??= level;
      out[j] = { level: stopLevel, rejected: false };
    }
  });
  return out;
}

/** The figures of a decided test: the estimate, the interval by inverting the test, and the detectable drop. */
function estimateOf(
  f: LookFacts,
  look: number,
  levels: { slower: number; upper: number; ok: number },
  threshold: number,
): Omit<PairedEstimate, 'pSlower' | 'pFaster' | 'alphaSpent'> {
  const { estimate: e, pairs } = f;
  const { values, fitted } = orderCorrected(pairs);
  const around = { estimate: e.estimate, se: e.se };
  const low = flipBound(values, pairs.blocks, levels.ok, 'lower', around, fitted);
  const high = flipBound(values, pairs.blocks, levels.upper, 'upper', around, fitted);
  const blocks = denseBlocks(pairs.blocks).count;
  const reachable = smallestFlipP(blocks) <= levels.slower + 1e-15 && e.df >= 1;
  const margin = -Math.log(threshold);
  // A regression needs the estimate under the threshold as well as a significant drop: the drop caught 4 times in 5
  // clears whichever of the two is further.
  const reach = reachable
    ? Math.max(studentQuantile(1 - levels.slower, e.df) * e.se, margin) + studentQuantile(POWER, e.df) * e.se
    : Infinity;
  return {
    pairs: pairs.logRatios.length,
    blocks,
    look,
    relativeQps: Math.exp(e.estimate),
    low: Number.isFinite(low) ? Math.exp(low) : 0,
    high: Math.exp(high),
    noise: pairStatistic(pairs).noise,
    orderEffect: Math.exp(e.orderEffect),
    logSe: e.se,
    logSeDf: e.df,
    detectableDrop: Number.isFinite(reach) ? 1 - Math.exp(-reach) : 1,
  };
}
