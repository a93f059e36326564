import type { Figures } from './figures.js';
import type { InstructionsView } from './instructions.js';
import type { MemorySettingName } from './memory.js';
import type { TestId } from './tests.js';
import type { Verdict } from './verdict.js';

/**
 * One session, baseline B against candidate C, as analysis sums it up and report renders it. Plain data: report
 * never recomputes a verdict.
 */

/** The medians of a side's per-op figures and the QPS they were normalised by (NaN: no sample had the figure). */
export type SidePerOp = Figures;

/** One side's summary of one test: its QPS over the samples and the medians of its figures. */
export interface SideSummary {
  /** median QPS over the samples */
  qps: number;
  samples: number;
  qpsMin: number;
  qpsMax: number;
  perOp: SidePerOp;
  /** database status counter deltas per operation, keyed by counter name (e.g. Innodb_rows_read) */
  dbPerOp: Record<string, number>;
  /**
   * The buffer pool hit ratio over the side's measured runs: 1 - Innodb_buffer_pool_reads / read_requests, from the
   * sums of their deltas; absent when the samples have no such counters (or no logical read).
   */
  hitRatio?: number;
}

/** A verdict as a table row carries it: the test and its relative QPS are the row's own. */
export type RowVerdict = Omit<Verdict, keyof TestId | 'relativeQps'>;

export interface TestRow extends TestId {
  baseline: SideSummary;
  candidate: SideSummary;
  /** C/B as decided by analysis: the verdict's estimate when judged, else median(C) / median(B) */
  relativeQps: number;
  /** absent when the session was not judged */
  verdict?: RowVerdict;
}

export interface TargetLabel {
  name: string;
  flavor: string;
  version: string;
  serverProfile: string;
  /** A release qpswatch built: the build profile it was built with (TAG@PROFILE names another than the upstream's). */
  buildProfile?: string;
}

export const sessionDesigns = ['paired', 'runs'] as const;
export type SessionDesignName = (typeof sessionDesigns)[number];

/**
 * One server variable whose value differs between the sides (SHOW GLOBAL VARIABLES after start-up). A side without
 * the variable (one release has it, the other not) has no value. A list of flags such as optimizer_switch keeps only
 * the flags that differ.
 */
export interface VariableDifference {
  name: string;
  baseline?: string;
  candidate?: string;
}

/** The sides' server variables compared: how many names were compared, and those whose values differ, by name. */
export interface VariableComparison {
  compared: number;
  differences: VariableDifference[];
}

/**
 * One statement whose plan differs between the sides (EXPLAIN FORMAT=JSON at each side's first start), each plan in
 * one line: per table its access and key, and what else it does (filesort, temporary table, conditions).
 */
export interface PlanDifference {
  test: string;
  statement: string;
  baseline: string;
  candidate: string;
}

/** The sides' statement plans compared: how many statements were explained on both, and those whose plans differ. */
export interface PlanComparison {
  compared: number;
  differences: PlanDifference[];
}

/** A suite's concurrency level as the session ran it: its threads on this host, as the suite wrote them, its load. */
export interface SessionLevel {
  threads: number;
  /** 4, "cores", "4*cores" */
  threadsSpec: number | string;
  tables: number;
  tableSize: number;
}

export interface ComparisonView {
  sessionId: number;
  suite: string;
  /** rounds (whole-run design), or the most pairs per test (paired design) */
  rounds: number;
  /** how the session measured, when known: 'paired' (alternating pairs) or 'runs' (whole runs in rounds) */
  design?: SessionDesignName;
  /** the memory setting every figure of the session was measured under; absent: the server profiles as they are */
  memory?: MemorySettingName;
  /** the suite's levels as resolved on the session's host, when the suite has levels */
  levels?: SessionLevel[];
  /** ISO 8601 timestamps, printed as given */
  startedAt: string;
  finishedAt: string;
  baseline: TargetLabel;
  candidate: TargetLabel;
  /** host fingerprint facts, printed as key=value in key order */
  host: Record<string, string | number | boolean>;
  tests: TestRow[];
  /** The instructions lane of the session (its 1-thread tests), when the session ran it: every format carries it. */
  instructions?: InstructionsView;
  /** The server variables that differ between B and C, when the session kept both sides' variables. */
  variables?: VariableComparison;
  /** The statement plans that differ between B and C, when the session kept both sides' plans. */
  plans?: PlanComparison;
}
