/**
 * Per-release results as history and export read them: rows imported from elsewhere (CSV), and the samples of done
 * sessions that ran a release.
 */
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

/** One sample of a done session in which one side was a release, with that release: the stuff of history. */
export interface ReleaseSampleRecord extends ResultFigures {
  sessionId: number;
  hostId: number;
  releaseId: number;
}

/** The results of releases: imported rows, and the release samples history is made of. */
export interface ResultsStore {
  /** All rows or none; a row whose (flavor, version, test, threads) is stored already is refused unless `replace`. */
  importResults(
    rows: readonly ImportedResultInput[],
    source: string,
    options?: { replace?: boolean },
  ): Promise<{ added: number; replaced: number }>;
  listImportedResults(): Promise<ImportedResultRecord[]>;
  /** Samples of done sessions in which a side ran a release of this upstream (invalid checks left out). */
  releaseSamples(upstream: string): Promise<ReleaseSampleRecord[]>;
}
