/** Per-release results brought in from elsewhere (CSV), which history and export read beside measured releases. */
import type { Figures, TestId } from '../model/index.js';

/** QPS and host resources per operation of one test run (or of a version, for imported rows). */
export type ResultFigures = TestId & Figures;

/** One row of results brought in from elsewhere (an earlier study, another store). */
export interface ImportedResultInput extends ResultFigures {
  flavor: string;
  version: string;
  versionKey: string;
}

export interface ImportedResultRecord extends ImportedResultInput {
  id: number;
  /** The file it came from. */
  source: string;
  importedAt: string;
}

/**
 * Imported results. Which samples of done sessions count for a release is analysis' rule (releaseSides), over the
 * sessions, checks and sample figures the store gives: written once, for history and /metrics alike.
 */
export interface ResultsStore {
  /** All rows or none; a row whose (flavor, version, test, threads) is stored already is refused unless `replace`. */
  importResults(
    rows: readonly ImportedResultInput[],
    source: string,
    options?: { replace?: boolean },
  ): Promise<{ added: number; replaced: number }>;
  listImportedResults(): Promise<ImportedResultRecord[]>;
}
