import type { Figures } from './figures.js';
import type { TestId } from './tests.js';

/**
 * A series' history, as in the reference "relative QPS" studies: many versions of one series measured on one host,
 * each relative to one base release. Analysis builds it; report renders it.
 */

export interface HistoryVersion {
  version: string;
  label: string;
  /** measured elsewhere and imported, not run by qpswatch: marked with "*" */
  imported: boolean;
}

export interface HistoryTest extends TestId {
  /** aligned with HistoryView.versions; null = not measured */
  figures: ReadonlyArray<Figures | null>;
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
