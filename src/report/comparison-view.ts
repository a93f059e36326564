/**
 * The input of a comparison report: one session, baseline B against candidate C. Plain data produced by the rooms
 * above (analysis fills the medians and relative QPS); this room only renders it and never recomputes a verdict.
 */

/** Host resources per operation, medians over a side's samples (see DESIGN "Measuring"). */
export interface PerOpFigures {
  /** mean CPU busy (us+sy, percent of all CPUs) / QPS */
  cpuPerOp: number;
  /** context switches per second / QPS */
  csPerOp: number;
  /** reads per second of the data device / QPS */
  readsPerOp: number;
  readKBPerOp: number;
  writeKBPerOp: number;
  /** operations per second the per-op figures were normalised by */
  qps: number;
  /** cpu/o x CPUs x 1e4: CPU microseconds per operation */
  cpuMicrosPerOp: number;
}

/** One target's figures for one test. */
export interface SideFigures {
  /** median QPS over the samples */
  qps: number;
  samples: number;
  qpsMin: number;
  qpsMax: number;
  perOp: PerOpFigures;
  /** database status counter deltas per operation, keyed by counter name (e.g. Innodb_rows_read) */
  dbPerOp: Record<string, number>;
}

/** A per-op figure of C that grew over B: part of the hint of why a test got slower. */
export interface HintFigure {
  metric: string;
  baseline: number;
  candidate: number;
  /** candidate / baseline; null when the baseline was 0 */
  ratio: number | null;
}

/** What analysis decided for one test (see docs/verdicts.md). */
export interface RowVerdict {
  kind: 'ok' | 'regression' | 'improvement' | 'unstable';
  threshold: number;
  /** family-wise p-values of the randomization test: C slower, C faster */
  pSlower: number;
  pFaster: number;
  /** the baseline's robust relative spread (1.4826 x MAD / median) */
  baselineSpread: number;
  /** the interval of relative QPS at `confidence` (0.95 = 95%): "ok" means no drop larger than 1 - low */
  low: number;
  /** null when the interval has no upper end (a single pair) */
  high: number | null;
  confidence: number;
  /** the smallest drop (0.05 = 5%) the session would have caught 4 times in 5 at its alpha */
  detectableDrop: number;
  /** pairs measured (paired design) or rounds (whole runs) behind the verdict */
  pairs: number;
  /** standard deviation of one pair's log ratio (or of one run's log QPS); null when not defined (a single pair) */
  noise: number | null;
  hint: HintFigure[];
}

export interface TestRow {
  test: string;
  threads: number;
  baseline: SideFigures;
  candidate: SideFigures;
  /** C/B as decided by analysis: the verdict's estimate when judged (paired: geometric mean of the pair ratios),
   * else median(C) / median(B) */
  relativeQps: number;
  /** absent when the session was not judged */
  verdict?: RowVerdict;
}

export interface TargetLabel {
  name: string;
  flavor: string;
  version: string;
  serverProfile: string;
}

export type SessionDesignName = 'paired' | 'runs';

export interface ComparisonView {
  sessionId: number;
  suite: string;
  /** rounds (whole-run design), or the most pairs per test (paired design) */
  rounds: number;
  /** how the session measured, when known: 'paired' (alternating pairs) or 'runs' (whole runs in rounds) */
  design?: SessionDesignName;
  /** ISO 8601 timestamps, printed as given */
  startedAt: string;
  finishedAt: string;
  baseline: TargetLabel;
  candidate: TargetLabel;
  /** host fingerprint facts, printed as key=value in key order */
  host: Record<string, string | number | boolean>;
  tests: TestRow[];
}

/** How a test is named in every table: its name and thread count, e.g. point-query.t1. */
export function testLabel(row: Pick<TestRow, 'test' | 'threads'>): string {
  return `${row.test}.t${row.threads}`;
}
