/**
 * The input of a history report, as in the reference "relative QPS" studies: many versions of one series measured
 * on one host, each relative to one base release. Plain data from the rooms above; this room only renders it.
 */

/** One version's figures for one test: QPS and host resources per operation (see DESIGN "Measuring"). */
export interface HistoryFigures {
  qps: number;
  cpuPerOp: number;
  csPerOp: number;
  readsPerOp: number;
  readKBPerOp: number;
  writeKBPerOp: number;
}

export interface HistoryVersion {
  version: string;
  label: string;
  /** measured elsewhere and imported, not run by qpswatch: marked with "*" */
  imported: boolean;
}

export interface HistoryTest {
  test: string;
  threads: number;
  /** aligned with HistoryView.versions; null = not measured */
  figures: ReadonlyArray<HistoryFigures | null>;
  /**
   * aligned with HistoryView.versions: the smallest drop (0.05 = 5%) the newest valid check of that release could
   * detect for the test; null where the release was not checked here (a base, an import, a check before verdicts
   * carried it). Absent: not known for any version.
   */
  detectableDrop?: ReadonlyArray<number | null>;
}

export interface HistoryView {
  series: string;
  flavor: string;
  /** index in versions of the base release every ratio is relative to */
  baseIndex: number;
  /** oldest first, as the columns are printed */
  versions: readonly HistoryVersion[];
  tests: readonly HistoryTest[];
  host: string;
  /** ISO 8601, printed as given */
  generatedAt: string;
}
