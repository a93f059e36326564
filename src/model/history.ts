import type { Figures } from './figures.js';
import type { InstructionVerdictKind } from './instructions.js';
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
  /**
   * aligned with HistoryView.versions: relative QPS against the base through the chain of paired checks, with its
   * interval (docs/verdicts.md, "Against the base: chained estimates"); null where the version has none (an import,
   * a release never checked here, a verdict stored before it carried its standard error), which the report then
   * shows as the median of unpaired runs, marked. Absent: no version has one.
   */
  chained?: ReadonlyArray<HistoryChained | null>;
  /** the test's regression threshold (threshold, test_thresholds): drift is a chained estimate under it */
  threshold?: number;
  /**
   * aligned with HistoryView.versions: the instructions lane's figure of a 1-thread test (docs/verdicts.md,
   * "Instructions per query"), null where the version was not counted on the host. Absent: no version was.
   */
  instructions?: ReadonlyArray<HistoryInstructions | null>;
}

/** A version's instructions per query, and its ratio to the base's stored figure of the same conditions. */
export interface HistoryInstructions {
  /** median instructions per query over every repeat counted of the version's binary under the same conditions */
  perQuery: number;
  /** (max - min) / median of those repeats */
  spread: number;
  repeats: number;
  /** perQuery / the base's of the same condition key, directly (no chain): 1 for the base, null where it has none */
  relativeToBase: number | null;
  /** the bounds of that ratio over both sides' repeats (min C / max B, max C / min B); null: no ratio, or the base */
  low: number | null;
  high: number | null;
  /** the lane's verdict against the base (at instructions_threshold); null for the base itself and without a ratio */
  verdict: InstructionVerdictKind | null;
}

/** A version's chained relative QPS against the base, with its interval at HistoryView.confidence. */
export interface HistoryChained {
  relativeQps: number;
  low: number;
  high: number;
  /** paired checks between the version and the base: 0 for the base itself, 1 for a session directly against it */
  steps: number;
  /** a step began at this version: the jump from the previous chained version, down or up; null where none did */
  step: HistoryStep | null;
}

export interface HistoryStep {
  direction: 'down' | 'up';
  /** this version's chained estimate / the previous chained version's */
  ratio: number;
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
  /** the confidence of the chained intervals (0.95); absent when no test is chained */
  confidence?: number;
  /** ISO 8601, printed as given */
  generatedAt: string;
  /** The newest bisection of each release of the series that has one, oldest release first. Absent: none. */
  bisections?: readonly HistoryBisection[];
  /**
   * Where the machine that ran the shown host's sessions was seen under another fingerprint before (a kernel or
   * compiler upgrade starts a new host), oldest first, with the facts that changed. Absent: no change is known.
   */
  hostChanges?: readonly HostChange[];
}

/** One machine (a runner, qpswatch's host_name) seen under a new fingerprint: when, and what changed. */
export interface HostChange {
  runner: string;
  /** when the new fingerprint was first seen, ISO 8601 */
  at: string;
  from: string;
  to: string;
  /** each fingerprint fact whose value changed, by name (kernel, compiler, ...) */
  changed: ReadonlyArray<{ fact: string; from: string; to: string }>;
}

/** A bisection as the history report shows it: one line. Subjects and authors are data, escaped by each layout. */
export interface HistoryBisection {
  tag: string;
  /** found, ambiguous, undecided, budget or failed */
  outcome: string;
  firstBad?: { commit: string; subject: string; author: string };
  /** the commits the first bad one is still among, when none was named */
  candidates: number;
  builds: number;
  error?: string;
}
