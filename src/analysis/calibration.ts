import { testKey, type CalibrationFigure, type TestId } from '../model/index.js';
import type { SampleRecord } from '../store/index.js';
import { alphaAtLook, lookSchedule } from './sequential.js';
import { MIN_LOG_SD, pairStatistic, signVectorsOf } from './sign-flip.js';
import { studentQuantile } from './student-t.js';

/**
 * Calibration of a host (`qpswatch calibrate`): a session of one target against itself, every test measured in every
 * sweep, says how noisy a pair is on this host and so how many pairs (and minutes) a test needs before a session can
 * catch a given drop. The arithmetic is the detectable drop of the paired design (sequential.ts):
 *
 *   DD(n) = 1 - exp(-(t(1 - alphaLook/T, n-1) + t(0.8, n-1)) * max(s, 0.01) / sqrt(n))
 *
 * with s the noise of a pair (sd of the log ratio around its order's mean), T the tests of the session (the family)
 * and alphaLook the share of alpha spent at the look by which n pairs are reached. It is a forecast: the Bonferroni t
 * stands in for the max-T critical value a session reads off its own pairs, which it approaches as n grows; a look
 * whose sign-flip test cannot go as low as its alpha (too few pairs) is priced at 1, unreachable.
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
  /** The config's max_pairs: it fixes the looks, and so each look's share of alpha. */
  maxPairs: number;
}

/** One test's pairs as measured by the calibration session, and how long a pair took. */
export interface CalibrationInput extends TestId {
  logRatios: readonly number[];
  /** Per pair: B ran first. */
  baselineFirst: readonly boolean[];
  /** Wall seconds of one pair (both halves and what runs between them). */
  pairSeconds: number;
}

/**
 * The first look (1-based) by which a sequential session of at most maxPairs pairs has n pairs (the last look past
 * them).
 */
export function lookOfPairs(n: number, maxPairs: number): number {
  const schedule = lookSchedule(maxPairs);
  const look = schedule.findIndex((pairs) => pairs >= n);
  return look < 0 ? schedule.length : look + 1;
}

/** DD(n): the drop n pairs of this noise catch 4 times in 5, at the alpha of the look that reaches n pairs. */
export function detectableDropAt(n: number, noise: number, settings: CalibrationSettings): number {
  if (!(n >= 3) || !Number.isFinite(noise)) return 1;
  const alphaLook = alphaAtLook(
    settings.alpha,
    lookOfPairs(n, settings.maxPairs),
    lookSchedule(settings.maxPairs).length,
  );
  if (1 / signVectorsOf(n) > alphaLook) return 1;
  const t = studentQuantile(1 - alphaLook / Math.max(settings.family, 1), n - 1) + studentQuantile(POWER, n - 1);
  return 1 - Math.exp((-t * Math.max(noise, MIN_LOG_SD)) / Math.sqrt(n));
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

export function calibrateTest(input: CalibrationInput, settings: CalibrationSettings): CalibrationFigure {
  const noise = pairNoise(input);
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
  };
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
 * seconds, the budget pays for that many sweeps (at most maxPairs), and each test's DD follows from its noise.
 */
export function expectationAtBudget(
  figures: readonly CalibrationFigure[],
  budgetMinutes: number,
  maxPairs: number,
  settings: CalibrationSettings,
): BudgetExpectation {
  const sweepSeconds = figures.reduce((a, f) => a + f.pairSeconds, 0);
  const pairs = sweepSeconds > 0 ? Math.min(maxPairs, Math.floor((budgetMinutes * 60) / sweepSeconds)) : 0;
  return {
    budgetMinutes,
    pairs,
    minutes: (pairs * sweepSeconds) / 60,
    drops: figures.map((f) => ({
      test: f.test,
      threads: f.threads,
      detectableDrop: f.noise === null ? 1 : detectableDropAt(pairs, f.noise, settings),
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
export function calibrationInputs(samples: readonly SampleRecord[]): CalibrationInput[] {
  const ordered = [...samples].sort((a, b) => a.id - b.id);
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
    const pairTimes: number[] = [];
    for (const round of rounds) {
      const b = group.find((s) => s.round === round && s.role === 'baseline');
      const c = group.find((s) => s.round === round && s.role === 'candidate');
      if (b === undefined || c === undefined) continue;
      logRatios.push(Math.log(Math.max(c.qps, 1e-6) / Math.max(b.qps, 1e-6)));
      baselineFirst.push(b.id < c.id);
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
      pairSeconds: pairTimes.length > 0 ? middle(pairTimes) : 2 * first.seconds,
    };
  });
}

function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
