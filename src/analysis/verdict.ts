import { figureOf, PER_OP_FIGURES, testKey, type HintFigure, type Verdict, type VerdictKind } from '../model/index.js';
import type { SampleRecord } from '../store/index.js';
import { median } from './median.js';
import { maxTPermutationTest, type Run } from './permutation.js';
import { instanceBlocks } from './instance-blocks.js';
import { replayLooks, type PairSeries } from './sequential.js';
import { MIN_LOG_SD } from './sign-flip.js';
import { studentQuantile } from './student-t.js';
import { pairedRounds, samplesOfFirstPairs } from './verdict-samples.js';

export interface VerdictSettings {
  /** Relative QPS under this is a regression when significant; over 1 / threshold an improvement. */
  threshold: number;
  /** Per-test thresholds by test name, over the default. */
  testThresholds: Readonly<Record<string, number>>;
  /** The family-wise false-alarm rate a session may have. */
  alpha: number;
  /** Of the interval reported per test (default 0.95): "ok" needs its lower end above the threshold. */
  confidence?: number;
  /** Paired design: the most pairs a test gets (default 200). */
  maxPairs?: number;
  /** Paired design: the blocks the session's budget pays for, which fix its looks; default maxPairs. */
  plannedBlocks?: number;
  /**
   * Paired design: seconds of runs a pair of server instances measures before both are restarted
   * (instance-blocks.ts); absent for sessions stored before restarts, which are judged a sweep to a block.
   */
  instanceSeconds?: number;
}

/** The max_pairs option's default: sessions stored before the setting was recorded had it. */
const DEFAULT_MAX_PAIRS = 200;

const HINT_GROWTH = 1.05;

const key = testKey;

/** The blocks a paired session's looks are planned on: the budget's, else max_pairs (sessions stored before). */
export function plannedBlocksOf(settings: VerdictSettings): number {
  return settings.plannedBlocks ?? settings.maxPairs ?? DEFAULT_MAX_PAIRS;
}

/**
 * Judges every test of a finished session (see docs/verdicts.md): a regression needs relative QPS under the
 * threshold AND a drop the randomization test finds significant at the session's family-wise alpha; slower when the
 * interval ends under 1 but does not show the drop past the threshold; unstable when the session could not tell.
 */
export function judgeSession(samples: readonly SampleRecord[], settings: VerdictSettings): Verdict[] {
  const test = maxTPermutationTest(runsOf(samples, 'baseline'), runsOf(samples, 'candidate'));
  const groups = groupByTest(samples);
  return [...groups.entries()].map(([k, group]) =>
    judgeTest(group, settings, test.slower.get(k) ?? 1, test.faster.get(k) ?? 1, groups.size),
  );
}

/**
 * Judges a session of the paired design (docs/verdicts.md): each test's pairs, sweep by sweep, replayed through the
 * session's looks. `final` false gives the verdicts of the tests decided so far only, which is what a running
 * session asks to know which tests still need pairs.
 */
export function judgePairedSession(
  samples: readonly SampleRecord[],
  settings: VerdictSettings,
  final = true,
): { verdicts: Verdict[]; pending: string[]; nextBlocks: number } {
  const groups = groupByTest(samples);
  const blocks = instanceBlocks(samples, settings.instanceSeconds);
  const series = [...groups.entries()].map(([k, group]) => pairSeries(k, group, blocks.blockOf));
  const sequential = {
    alpha: settings.alpha,
    confidence: confidenceOf(settings),
    plannedBlocks: plannedBlocksOf(settings),
    thresholdOf: (t: string) => thresholdOf(settings, t),
  };
  const replay = replayLooks(series, sequential, final, blocks.closed);
  const verdicts = replay.decided.map((j) => {
    const group = groups.get(j.key)!;
    const behind = samplesOfFirstPairs(group, j.pairs);
    const [b, c] = (['baseline', 'candidate'] as const).map((role) => behind.filter((s) => s.role === role));
    const first = group[0]!;
    return {
      test: first.test,
      threads: first.threads,
      kind: j.kind,
      relativeQps: j.relativeQps,
      threshold: thresholdOf(settings, first.test),
      pSlower: j.pSlower,
      pFaster: j.pFaster,
      baselineSpread: robustSpread(b!.map((s) => s.qps)),
      low: j.low,
      high: finiteOrNull(j.high),
      confidence: confidenceOf(settings),
      detectableDrop: j.detectableDrop,
      pairs: j.pairs,
      noise: finiteOrNull(j.noise),
      orderEffect: j.orderEffect,
      logSe: finiteOrNull(j.logSe),
      logSeDf: Number.isFinite(j.logSe) ? j.logSeDf : null,
      hint: j.kind === 'regression' ? hintOf(b!, c!) : [],
    };
  });
  return { verdicts: sortLike(verdicts, [...groups.keys()]), pending: replay.pending, nextBlocks: replay.nextBlocks };
}

/** Rounds (sweeps) in which both halves of the test's pair were measured, in order. */
/**
 * The test's pairs, sweep by sweep; which side ran first is which of the two was written first (samples keep that
 * order), and the block of each is its sweep's.
 */
function pairSeries(k: string, group: readonly SampleRecord[], blockOf: ReadonlyMap<number, number>): PairSeries {
  const at = (role: SampleRecord['role'], round: number): number =>
    group.findIndex((s) => s.role === role && s.round === round);
  const rounds = pairedRounds(group);
  const logRatios = rounds.map((r) =>
    Math.log(Math.max(group[at('candidate', r)]!.qps, 1e-6) / Math.max(group[at('baseline', r)]!.qps, 1e-6)),
  );
  return {
    key: k,
    test: group[0]!.test,
    logRatios,
    baselineFirst: rounds.map((r) => at('baseline', r) < at('candidate', r)),
    blocks: rounds.map((r) => blockOf.get(r) ?? 0),
  };
}

function sortLike(verdicts: Verdict[], keys: readonly string[]): Verdict[] {
  return [...verdicts].sort((a, b) => keys.indexOf(key(a)) - keys.indexOf(key(b)));
}

function groupByTest(samples: readonly SampleRecord[]): Map<string, SampleRecord[]> {
  const groups = new Map<string, SampleRecord[]>();
  for (const s of samples) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  return groups;
}

const DEFAULT_CONFIDENCE = 0.95;
const confidenceOf = (settings: VerdictSettings): number => settings.confidence ?? DEFAULT_CONFIDENCE;
/** A test's threshold: its entry in test_thresholds, else threshold (the verdicts and the exported metric alike). */
export const thresholdOf = (settings: Pick<VerdictSettings, 'threshold' | 'testThresholds'>, test: string): number =>
  settings.testThresholds[test] ?? settings.threshold;

function runsOf(samples: readonly SampleRecord[], role: SampleRecord['role']): Run[] {
  const rounds = new Map<number, Map<string, number>>();
  for (const s of samples.filter((x) => x.role === role)) {
    const run = rounds.get(s.round) ?? new Map<string, number>();
    run.set(key(s), s.qps);
    rounds.set(s.round, run);
  }
  return [...rounds.values()];
}

function judgeTest(
  group: readonly SampleRecord[],
  settings: VerdictSettings,
  pSlower: number,
  pFaster: number,
  family: number,
): Verdict {
  const first = group[0]!;
  const b = group.filter((s) => s.role === 'baseline');
  const c = group.filter((s) => s.role === 'candidate');
  const relativeQps = median(c.map((s) => s.qps)) / median(b.map((s) => s.qps));
  const threshold = thresholdOf(settings, first.test);
  const baselineSpread = robustSpread(b.map((s) => s.qps));
  const spread = runsEstimate(
    b.map((s) => s.qps),
    c.map((s) => s.qps),
    settings,
    family,
  );
  const kind = classify({
    relativeQps,
    threshold,
    pSlower,
    pFaster,
    alpha: settings.alpha,
    low: spread.low,
    high: spread.high,
  });
  return {
    test: first.test,
    threads: first.threads,
    kind,
    relativeQps,
    threshold,
    pSlower,
    pFaster,
    baselineSpread,
    ...spread,
    orderEffect: null,
    confidence: confidenceOf(settings),
    hint: kind === 'regression' ? hintOf(b, c) : [],
  };
}

/**
 * Whole runs: the interval and detectable drop from the difference of mean log QPS (Student's t with the two sides'
 * pooled spread, since runs are not paired); the reported relative QPS stays the ratio of medians.
 */
function runsEstimate(
  b: readonly number[],
  c: readonly number[],
  settings: VerdictSettings,
  family: number,
): Pick<Verdict, 'low' | 'high' | 'detectableDrop' | 'pairs' | 'noise' | 'logSe' | 'logSeDf'> {
  const [lb, lc] = [b.map(Math.log), c.map(Math.log)];
  const df = Math.max(lb.length + lc.length - 2, 1);
  const noise = Math.sqrt((sumSquares(lb) + sumSquares(lc)) / df);
  const se = Math.max(noise, MIN_LOG_SD) * Math.sqrt(1 / lb.length + 1 / lc.length);
  const e = intervalAndReach(meanOf(lc) - meanOf(lb), se, df, settings.alpha / family, confidenceOf(settings));
  return {
    low: e.low,
    high: finiteOrNull(e.high),
    detectableDrop: e.detectableDrop,
    pairs: Math.min(b.length, c.length),
    noise: finiteOrNull(noise),
    logSe: finiteOrNull(se),
    logSeDf: Number.isFinite(se) ? df : null,
  };
}

const POWER = 0.8;

/**
 * For a mean log ratio with its standard error: relative QPS, its interval at `confidence`, and the drop a one-sided
 * test at `alpha` would catch with 80% power, all from Student's t with `df` degrees of freedom (whole-run design).
 */
function intervalAndReach(
  mean: number,
  se: number,
  df: number,
  alpha: number,
  confidence: number,
): { relativeQps: number; low: number; high: number; detectableDrop: number } {
  const half = studentQuantile(1 - (1 - confidence) / 2, df) * se;
  const reach = (studentQuantile(1 - alpha, df) + studentQuantile(POWER, df)) * se;
  return {
    relativeQps: Math.exp(mean),
    low: Math.exp(mean - half),
    high: Math.exp(mean + half),
    detectableDrop: 1 - Math.exp(-reach),
  };
}

const meanOf = (values: readonly number[]): number => values.reduce((a, v) => a + v, 0) / Math.max(values.length, 1);

function sumSquares(values: readonly number[]): number {
  const m = meanOf(values);
  return values.reduce((a, v) => a + (v - m) ** 2, 0);
}

interface Evidence {
  relativeQps: number;
  threshold: number;
  pSlower: number;
  pFaster: number;
  alpha: number;
  /** The lower end of the interval of relative QPS. */
  low: number;
  /** Its upper end; null when it has none (one round a side). */
  high: number | null;
}

export function classify(e: Evidence): VerdictKind {
  if (e.relativeQps < e.threshold && e.pSlower <= e.alpha) return 'regression';
  if (e.relativeQps > 1 / e.threshold && e.pFaster <= e.alpha) return 'improvement';
  // "ok" is a statement: no drop larger than the threshold's margin, at the interval's confidence. A drop the
  // session cannot call significant, or an interval too wide to rule one out, is not ok: unstable.
  if (e.low >= e.threshold) return 'ok';
  // An interval that ends under 1 shows the release slower, though not past the threshold: its own verdict (slower),
  // with no alert; only a session that could not tell either way is unstable.
  if (e.high !== null && e.high < 1) return 'slower';
  return 'unstable';
}

/** 1.4826 x MAD / median: a standard deviation relative to the median that one odd round cannot inflate. */
export function robustSpread(values: readonly number[]): number {
  const m = median(values);
  return (1.4826 * median(values.map((v) => Math.abs(v - m)))) / m;
}

/** A hint item before it is reported: its ratio is Infinity when the baseline was 0, so it sorts first. */
type Growth = HintFigure & { ratio: number };

/**
 * The resources per operation (and database counters) that grew by HINT_GROWTH or more, largest first; when none
 * did, the figures of waiting (off-CPU time) that grew: the time went to waiting (IO, locks, sleeps), not to work.
 */
export function hintOf(b: readonly SampleRecord[], c: readonly SampleRecord[]): HintFigure[] {
  const resources = grown([...figureItems(b, c, 'resource'), ...counterItems(b, c)]);
  return resources.length > 0 ? resources : grown(figureItems(b, c, 'waiting'));
}

function figureItems(b: readonly SampleRecord[], c: readonly SampleRecord[], hint: 'resource' | 'waiting'): Growth[] {
  return PER_OP_FIGURES.filter((f) => f.hint === hint).map(({ header, field }) =>
    item(header, median(b.map((s) => figureOf(s, field))), median(c.map((s) => figureOf(s, field)))),
  );
}

function counterItems(b: readonly SampleRecord[], c: readonly SampleRecord[]): Growth[] {
  const items: Growth[] = [];
  const counters = new Set([...b, ...c].flatMap((s) => Object.keys(s.dbCounters)));
  for (const name of counters) {
    const values = (side: readonly SampleRecord[]): number[] =>
      side.flatMap((s) => (s.dbCounters[name] !== undefined ? [s.dbCounters[name]!.perOp] : []));
    const [vb, vc] = [values(b), values(c)];
    if (vb.length > 0 && vc.length > 0) items.push(item(name, median(vb), median(vc)));
  }
  return items;
}

function grown(items: readonly Growth[]): HintFigure[] {
  return items
    .filter((i) => i.ratio >= HINT_GROWTH)
    .sort((x, y) => y.ratio - x.ratio)
    .map((i) => ({ ...i, ratio: finiteOrNull(i.ratio) }));
}

function item(metric: string, baseline: number, candidate: number): Growth {
  const ratio = baseline === 0 ? (candidate === 0 ? 1 : Number.POSITIVE_INFINITY) : candidate / baseline;
  return { metric, baseline, candidate, ratio };
}

/** Infinity (no upper end) and NaN (no spread from one pair) are reported as null, which every format can hold. */
const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);
