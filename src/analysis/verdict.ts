import type { SampleRecord } from '../store/index.js';
import { median } from './median.js';
import { maxTPermutationTest, type Run } from './permutation.js';

export type VerdictKind = 'ok' | 'regression' | 'improvement' | 'unstable';

export interface VerdictSettings {
  /** Relative QPS under this is a regression when significant; over 1 / threshold an improvement. */
  threshold: number;
  /** Per-test thresholds by test name, over the default. */
  testThresholds: Readonly<Record<string, number>>;
  /** The family-wise false-alarm rate a session may have. */
  alpha: number;
}

/** One per-op figure that grew: the hint of why a test got slower. */
export interface HintItem {
  metric: string;
  baseline: number;
  candidate: number;
  /** candidate / baseline; Infinity when the baseline was 0. */
  ratio: number;
}

export interface TestVerdict {
  test: string;
  threads: number;
  kind: VerdictKind;
  relativeQps: number;
  threshold: number;
  /** Family-wise p-values of the max-T randomization test. */
  pSlower: number;
  pFaster: number;
  /** The baseline's robust relative spread: 1.4826 x MAD / median of its QPS over the rounds. */
  baselineSpread: number;
  /** Per-op figures of C that grew by 5% or more over B, largest first (set for regressions). */
  hint: HintItem[];
}

const PER_OP: ReadonlyArray<[string, (s: SampleRecord) => number]> = [
  ['cpu/o', (s) => s.cpuPerOp],
  ['cs/o', (s) => s.csPerOp],
  ['r/o', (s) => s.readsPerOp],
  ['rKB/o', (s) => s.readKBPerOp],
  ['wKB/o', (s) => s.writeKBPerOp],
];
const HINT_GROWTH = 1.05;

const key = (s: Pick<SampleRecord, 'test' | 'threads'>): string => `${s.test}\u0000${s.threads}`;

/**
 * Judges every test of a finished session (see docs/verdicts.md): a regression needs relative QPS under the
 * threshold AND a drop the randomization test finds significant at the session's family-wise alpha; unstable
 * when that does not hold and the baseline's own spread is wider than the threshold's margin (rerun, do not alert).
 */
export function judgeSession(samples: readonly SampleRecord[], settings: VerdictSettings): TestVerdict[] {
  const test = maxTPermutationTest(runsOf(samples, 'baseline'), runsOf(samples, 'candidate'));
  const groups = new Map<string, SampleRecord[]>();
  for (const s of samples) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
  return [...groups.entries()].map(([k, group]) => judgeTest(group, settings, test.slower.get(k) ?? 1, test.faster.get(k) ?? 1));
}

function runsOf(samples: readonly SampleRecord[], role: SampleRecord['role']): Run[] {
  const rounds = new Map<number, Map<string, number>>();
  for (const s of samples.filter((x) => x.role === role)) {
    const run = rounds.get(s.round) ?? new Map<string, number>();
    run.set(key(s), s.qps);
    rounds.set(s.round, run);
  }
  return [...rounds.values()];
}

function judgeTest(group: readonly SampleRecord[], settings: VerdictSettings, pSlower: number, pFaster: number): TestVerdict {
  const first = group[0]!;
  const b = group.filter((s) => s.role === 'baseline');
  const c = group.filter((s) => s.role === 'candidate');
  const relativeQps = median(c.map((s) => s.qps)) / median(b.map((s) => s.qps));
  const threshold = settings.testThresholds[first.test] ?? settings.threshold;
  const baselineSpread = robustSpread(b.map((s) => s.qps));
  const kind = classify({ relativeQps, threshold, pSlower, pFaster, alpha: settings.alpha, baselineSpread });
  return { test: first.test, threads: first.threads, kind, relativeQps, threshold, pSlower, pFaster, baselineSpread, hint: kind === 'regression' ? hintOf(b, c) : [] };
}

interface Evidence {
  relativeQps: number;
  threshold: number;
  pSlower: number;
  pFaster: number;
  alpha: number;
  baselineSpread: number;
}

export function classify(e: Evidence): VerdictKind {
  if (e.relativeQps < e.threshold && e.pSlower <= e.alpha) return 'regression';
  if (e.relativeQps > 1 / e.threshold && e.pFaster <= e.alpha) return 'improvement';
  // A drop under the threshold that the rounds taken cannot call significant is not "ok": rerun, do not trust it.
  if (e.relativeQps < e.threshold) return 'unstable';
  if (e.baselineSpread > 1 - e.threshold) return 'unstable';
  return 'ok';
}

/** 1.4826 x MAD / median: a standard deviation relative to the median that one odd round cannot inflate. */
export function robustSpread(values: readonly number[]): number {
  const m = median(values);
  return (1.4826 * median(values.map((v) => Math.abs(v - m)))) / m;
}

function hintOf(b: readonly SampleRecord[], c: readonly SampleRecord[]): HintItem[] {
  const items: HintItem[] = PER_OP.map(([metric, pick]) => item(metric, median(b.map(pick)), median(c.map(pick))));
  const counters = new Set([...b, ...c].flatMap((s) => Object.keys(s.dbCounters)));
  for (const name of counters) {
    const values = (side: readonly SampleRecord[]): number[] => side.flatMap((s) => (s.dbCounters[name] !== undefined ? [s.dbCounters[name]!.perOp] : []));
    const [vb, vc] = [values(b), values(c)];
    if (vb.length > 0 && vc.length > 0) items.push(item(name, median(vb), median(vc)));
  }
  return items.filter((i) => i.ratio >= HINT_GROWTH).sort((x, y) => y.ratio - x.ratio);
}

function item(metric: string, baseline: number, candidate: number): HintItem {
  const ratio = baseline === 0 ? (candidate === 0 ? 1 : Number.POSITIVE_INFINITY) : candidate / baseline;
  return { metric, baseline, candidate, ratio };
}
