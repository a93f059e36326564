import { testKey, type CalibrationFigure, type TestId } from '../model/index.js';
import type { SampleRecord } from '../store/index.js';
import { orderCorrected, smallestFlipP } from './block-flip.js';
import { instanceBlocks } from './instance-blocks.js';
import { lookPlan } from './look-plan.js';
import { MIN_LOG_SD, pairStatistic } from './sign-flip.js';
import { studentQuantile } from './student-t.js';

/**
 * Calibration of a host (`qpswatch calibrate`): a session of one target against itself, every test measured in every
 * sweep, says how noisy a pair is on this host and so how many pairs (and minutes) a test needs before a session can
 * catch a given drop. The arithmetic is the detectable drop of the paired design (sequential.ts):
 *
 *   DD(n) = 1 - exp(-(max(t(1 - a/T, b-1) se, m) + t(0.8, b-1) se)),  se = sqrt(s^2 / n + v / b)
 *
 * with s the noise of a pair (sd of the log ratio around its order's mean), v the variance of the offset between two
 * instances, n pairs in b blocks (b = n with a pair per block, as a quick-suite session of every test in every sweep
 * has), T the tests of the session and a the share of alpha of the last look of a session whose budget pays for b
 * blocks (look-plan.ts). m is the threshold's
 * margin, -log(threshold), when one is given: a regression also needs its estimate under the threshold. It is a
 * forecast: the t stands in for the exact randomization test a session runs; a look whose test cannot go as low as
 * its share (too few blocks) is priced at 1, unreachable.
 */

const POWER = 0.8;
/** The drop a calibration prices: how many pairs make it detectable. */
export const CALIBRATION_DROP = 0.05;
/** Past this many pairs a test is reported as out of reach rather than searched further. */
export const MAX_CALIBRATION_PAIRS = 10_000;

export interface CalibrationSettings {
  /** The family-wise alpha of a session (the config's alpha). */
  alpha: number;
  /** Tests (test x threads) in a session of the suite: they share alpha. */
  family: number;
  /** The drop to reach; default 5%. */
  drop?: number;
  /** The config's max_pairs: a session never has more pairs. */
  maxPairs: number;
  /** The variance of the offset between two instances (log units squared); 0 when unknown. */
  instanceVariance?: number;
  /** Pairs of a test in one block (pair of server instances); default 1, a new pair of instances every sweep. */
  pairsPerBlock?: number;
  /** The threshold a regression's estimate must be under; none prices significance alone. */
  threshold?: number;
}

/** One test's pairs as measured by the calibration session, and how long a pair took. */
export interface CalibrationInput extends TestId {
  logRatios: readonly number[];
  /** Per pair: B ran first. */
  baselineFirst: readonly boolean[];
  /** Per pair: the block (pair of server instances) it was measured on. */
  blocks: readonly number[];
  /** Wall seconds of one pair (both halves and what runs between them). */
  pairSeconds: number;
}

/**
 * DD(n): the drop n pairs of this noise catch 4 times in 5, at the last look of a session whose budget pays for their
 * blocks (n / pairsPerBlock, rounded up): the offsets between instances average over the blocks, the noise of a pair
 * over the pairs, and the error has blocks - 1 degrees of freedom.
 */
export function detectableDropAt(n: number, noise: number, settings: CalibrationSettings): number {
  const blocks = Math.ceil(n / Math.max(1, settings.pairsPerBlock ?? 1));
  if (!(n >= 3) || !(blocks >= 2) || !Number.isFinite(noise)) return 1;
  const family = Math.max(settings.family, 1);
  const plan = lookPlan(blocks, family, settings.alpha);
  const level = (settings.alpha * plan.shares.at(-1)!) / family;
  if (smallestFlipP(blocks) > level) return 1;
  const se = Math.sqrt(Math.max(noise, MIN_LOG_SD) ** 2 / n + (settings.instanceVariance ?? 0) / blocks);
  const margin = settings.threshold === undefined ? 0 : -Math.log(settings.threshold);
  const df = blocks - 1;
  const reach = Math.max(studentQuantile(1 - level, df) * se, margin) + studentQuantile(POWER, df) * se;
  return 1 - Math.exp(-reach);
}

/**
 * The variance of the offset between two instances a forecast of one test uses: twice the square of the test's own
 * calibrated spread (the sd of one instance's offset), else of the calibration's median over its tests; 0 for a
 * calibration from before the spread was measured.
 */
export function instanceVarianceOf(
  figure: Pick<CalibrationFigure, 'instanceSpread'>,
  suiteSpread: number | null | undefined,
): number {
  const spread = typeof figure.instanceSpread === 'number' ? figure.instanceSpread : suiteSpread;
  return typeof spread === 'number' ? 2 * spread ** 2 : 0;
}

/** The smallest n with DD(n) <= drop; null when no n up to MAX_CALIBRATION_PAIRS reaches it. */
export function pairsForDrop(noise: number, settings: CalibrationSettings): number | null {
  if (!Number.isFinite(noise)) return null;
  const drop = settings.drop ?? CALIBRATION_DROP;
  for (let n = 2; n <= MAX_CALIBRATION_PAIRS; n++) if (detectableDropAt(n, noise, settings) <= drop) return n;
  return null;
}

/** The noise of a pair as the verdicts measure it (clipped, the order effect taken out); null under 3 pairs. */
export function pairNoise(pairs: Pick<CalibrationInput, 'logRatios' | 'baselineFirst'>): number | null {
  if (pairs.logRatios.length < 3) return null;
  return pairStatistic(pairs).noise;
}

/**
 * The sd of one server instance's offset, from how much more the blocks' mean log ratios spread than their pairs
 * explain: var(block means) - (the pairs' variance within blocks) / (pairs per block) is the variance of the offset
 * between two instances, C's less B's, which is twice one instance's. Null under 3 blocks or 2 pairs a block.
 */
export function instanceSpread(input: Pick<CalibrationInput, 'logRatios' | 'baselineFirst' | 'blocks'>): number | null {
  const { values } = orderCorrected({ ...input });
  const byBlock = new Map<number, number[]>();
  values.forEach((r, i) => byBlock.set(input.blocks[i]!, [...(byBlock.get(input.blocks[i]!) ?? []), r]));
  const groups = [...byBlock.values()].filter((g) => g.length >= 2);
  if (groups.length < 3) return null;
  const meanOf = (g: readonly number[]): number => g.reduce((a, v) => a + v, 0) / g.length;
  const means = groups.map(meanOf);
  const grand = meanOf(means);
  const between = means.reduce((a, m) => a + (m - grand) ** 2, 0) / (means.length - 1);
  const withinSquares = groups.reduce((a, g, k) => a + g.reduce((b, r) => b + (r - means[k]!) ** 2, 0), 0);
  const within = withinSquares / groups.reduce((a, g) => a + g.length - 1, 0);
  const perBlock = groups.length / groups.reduce((a, g) => a + 1 / g.length, 0);
  return Math.sqrt(Math.max(0, between - within / perBlock) / 2);
}

export function calibrateTest(input: CalibrationInput, settings: CalibrationSettings): CalibrationFigure {
  const noise = pairNoise(input);
  const spread = instanceSpread(input);
  if (spread !== null) settings = { ...settings, instanceVariance: 2 * spread ** 2 };
  const pairsNeeded = noise === null ? null : pairsForDrop(noise, settings);
  return {
    test: input.test,
    threads: input.threads,
    pairs: input.logRatios.length,
    noise,
    pairSeconds: input.pairSeconds,
    pairsNeeded,
    minutesNeeded: pairsNeeded === null ? null : (pairsNeeded * input.pairSeconds) / 60,
    detectableDrop: noise === null ? 1 : detectableDropAt(input.logRatios.length, noise, settings),
    instanceSpread: spread,
  };
}

/** How a release's session cuts its blocks: sweeps of every test per pair of instances, and what a restart costs. */
export interface BlockCost {
  sweepsPerBlock: number;
  restartSeconds: number;
}

export interface BudgetExpectation {
  budgetMinutes: number;
  /** Pairs every test gets when each sweep measures every test (the slowest case: nothing decided early). */
  pairs: number;
  /** Minutes those pairs take (at most the budget). */
  minutes: number;
  /** Per test, DD at that many pairs (1 when the noise is unknown). */
  drops: Array<TestId & { detectableDrop: number }>;
}

/**
 * What a session of the suite can be expected to detect within a budget: each sweep costs the sum of the tests' pair
 * seconds, a block `blocks.sweepsPerBlock` sweeps with a restart between each two (none when not given), the budget
 * pays for that many sweeps (at most maxPairs), and each test's DD follows from its noise and its calibrated spread
 * between instances (`suiteSpread`, the calibration's median, for a test without its own).
 */
export function expectationAtBudget(
  figures: readonly CalibrationFigure[],
  budgetMinutes: number,
  maxPairs: number,
  settings: CalibrationSettings,
  options: { blocks?: BlockCost; suiteSpread?: number | null } = {},
): BudgetExpectation {
  const sweepSeconds = figures.reduce((a, f) => a + f.pairSeconds, 0);
  const { sweepsPerBlock, restartSeconds } = options.blocks ?? { sweepsPerBlock: 1, restartSeconds: 0 };
  const blockSeconds = sweepsPerBlock * sweepSeconds;
  const blocks =
    blockSeconds > 0 ? Math.floor((budgetMinutes * 60 + restartSeconds) / (blockSeconds + restartSeconds)) : 0;
  const pairs = Math.min(maxPairs, blocks * sweepsPerBlock);
  const restarts = Math.max(0, Math.ceil(pairs / sweepsPerBlock) - 1);
  return {
    budgetMinutes,
    pairs,
    minutes: (pairs * sweepSeconds + restarts * restartSeconds) / 60,
    drops: figures.map((f) => ({
      test: f.test,
      threads: f.threads,
      detectableDrop:
        f.noise === null
          ? 1
          : detectableDropAt(pairs, f.noise, {
              ...settings,
              pairsPerBlock: sweepsPerBlock,
              instanceVariance: instanceVarianceOf(f, options.suiteSpread),
            }),
    })),
  };
}

/**
 * The calibration inputs of a finished paired session: per test (in the order first measured), the log ratios of its
 * pairs by sweep, and the wall time of a pair. A sample's wall time is the time since the sample written before it
 * (createdAt), which holds the switch of servers and the readings around the run; a pair is the sum of its two
 * halves, and the test's pair time the median over the pairs where both halves have a predecessor. Without timing
 * (no parsable createdAt), a pair is 2 x the test's seconds.
 */
export function calibrationInputs(samples: readonly SampleRecord[], instanceSeconds?: number): CalibrationInput[] {
  const ordered = [...samples].sort((a, b) => a.id - b.id);
  const { blockOf } = instanceBlocks(samples, instanceSeconds);
  const wall = new Map<SampleRecord, number>();
  for (let i = 1; i < ordered.length; i++) {
    const ms = Date.parse(ordered[i]!.createdAt) - Date.parse(ordered[i - 1]!.createdAt);
    if (Number.isFinite(ms) && ms > 0) wall.set(ordered[i]!, ms / 1000);
  }
  const groups = new Map<string, SampleRecord[]>();
  for (const s of ordered) {
    const k = testKey(s);
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return [...groups.values()].map((group) => {
    const rounds = [...new Set(group.map((s) => s.round))].sort((a, b) => a - b);
    const logRatios: number[] = [];
    const baselineFirst: boolean[] = [];
    const blocks: number[] = [];
    const pairTimes: number[] = [];
    for (const round of rounds) {
      const b = group.find((s) => s.round === round && s.role === 'baseline');
      const c = group.find((s) => s.round === round && s.role === 'candidate');
      if (b === undefined || c === undefined) continue;
      logRatios.push(Math.log(Math.max(c.qps, 1e-6) / Math.max(b.qps, 1e-6)));
      baselineFirst.push(b.id < c.id);
      blocks.push(blockOf.get(round) ?? 0);
      const wb = wall.get(b);
      const wc = wall.get(c);
      if (wb !== undefined && wc !== undefined) pairTimes.push(wb + wc);
    }
    const first = group[0]!;
    return {
      test: first.test,
      threads: first.threads,
      logRatios,
      baselineFirst,
      blocks,
      pairSeconds: pairTimes.length > 0 ? middle(pairTimes) : 2 * first.seconds,
    };
  });
}

function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
