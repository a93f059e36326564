/**
 * The instructions lane's figures (docs/verdicts.md, "Instructions per query"): per session, side, test and repeat
 * the instructions one counted run executed and its queries, stored with everything the figure depends on; per side
 * and test the function table of one run (instructions per query, inclusive and exclusive); and how the lane ended.
 */
import type { FunctionCost, InstructionCounterKind, InstructionVerdict, SampleRole } from '../model/index.js';
import type { JsonObject } from './json-object.js';

/** One counted run: the measured events of one test on one side's server, started fresh from the snapshot. */
export interface InstructionRunInput {
  role: SampleRole;
  /** The side's target name, as the session names it. */
  target: string;
  /**
   * The binary's identity: a build's key, a tarball's sha256, or the sha256 of an installed mysqld (`sha256:` and its
   * first 16 hex digits). Two runs of one binary under one condition key are the same figure, whatever the session.
   */
  buildKey: string;
  test: string;
  threads: number;
  /** 1, 2, ...: the side's repeats of the test. */
  repeat: number;
  /** Instructions counted over the measured events. */
  instructions: number;
  /** sysbench's queries over those events (BEGIN and COMMIT count, as in the QPS lane): the per-query divisor. */
  queries: number;
  /**
   * Everything the figure depends on besides the binary (counter and its version, what is counted, suite, test, its
   * script, the load, events and seeds, server profile, CPU architecture and model, C library), as JSON.
   */
  conditions: JsonObject;
  /** A hash of conditions: figures compare directly only when their keys are equal. */
  conditionKey: string;
  /** Wall time of the whole run: copy, start, warm-up, measured events, stop. */
  seconds: number;
}

export interface InstructionRunRecord extends InstructionRunInput {
  id: number;
  sessionId: number;
  createdAt: string;
}

/** One side's function table for one test: the functions of its median repeat, per query. */
export interface InstructionFunctionsInput {
  role: SampleRole;
  test: string;
  threads: number;
  /** Largest inclusive first; functions under 0.01% of the run's instructions are left out. */
  functions: FunctionCost[];
}

export interface InstructionFunctionsRecord extends InstructionFunctionsInput {
  sessionId: number;
}

export const instructionLaneStates = ['done', 'skipped', 'failed'] as const;
export type InstructionLaneState = (typeof instructionLaneStates)[number];

/** How a session's instructions lane ended: done, skipped (no counter, no 1-thread test) or failed, with why. */
export interface InstructionLaneInput {
  state: InstructionLaneState;
  /** Why it was skipped or failed: one line. */
  reason?: string;
  counter?: InstructionCounterKind;
  counterVersion?: string;
  /** Counted runs stored. */
  runs: number;
  seconds: number;
}

export interface InstructionLaneRecord extends InstructionLaneInput {
  sessionId: number;
}

/** Runs of one binary under one condition key, from done sessions only. */
export interface InstructionRunQuery {
  buildKey: string;
  conditionKey: string;
}

/** The instructions lane's runs, function tables and outcome. */
export interface InstructionStore {
  /** Stores one counted run of a running session; returns its id. A second run of the same repeat is refused. */
  addInstructionRun(sessionId: number, input: InstructionRunInput): Promise<number>;
  /** A session's runs (of any state), in the order stored. */
  instructionRuns(sessionId: number): Promise<InstructionRunRecord[]>;
  /** Runs of done sessions with this binary and condition key, oldest first: a release's figure from any session. */
  findInstructionRuns(query: InstructionRunQuery): Promise<InstructionRunRecord[]>;
  /** Stores one side's function table of one test; a second for the same side and test replaces it. */
  addInstructionFunctions(sessionId: number, input: InstructionFunctionsInput): Promise<void>;
  /** A session's function tables, by side and test. */
  instructionFunctions(sessionId: number): Promise<InstructionFunctionsRecord[]>;
  /** How the session's lane ended; a second record replaces the first. */
  recordInstructionLane(sessionId: number, input: InstructionLaneInput): Promise<void>;
  instructionLane(sessionId: number): Promise<InstructionLaneRecord | undefined>;
}

/**
 * One test of one upstream whose instructions per query grew past the threshold (the lane's own kind of event): kind
 * regression against the check's baseline (the last good release), drift against the series' base, compared directly
 * from stored figures. Open from the release where it was seen until a later release recovers it, a person accepts
 * the new normal, or the check that opened it is found invalid; acknowledged, it sends no more email.
 */
export interface InstructionEventRecord {
  id: number;
  upstream: string;
  test: string;
  threads: number;
  releaseId: number;
  /** The release it was judged against: the check's baseline (regression) or the series' base (drift). */
  baselineReleaseId: number;
  sessionId: number;
  /** Instructions per query, release / baseline, when it opened. */
  ratio: number;
  kind: 'regression' | 'drift';
  state: 'open' | 'fixed' | 'accepted' | 'invalid';
  acked: boolean;
  openedAt: string;
  closedAt: string | null;
  closedByReleaseId: number | null;
}

/** The instructions lane's part of a check, recorded in the check's transaction. */
export interface InstructionCheckInput {
  /** The lane's verdicts on the check's session (C against its baseline). */
  verdicts: InstructionVerdict[];
  /** Tests with no open instructions event in the upstream that grew past the threshold: each opens one. */
  openEvents: Array<{
    test: string;
    threads: number;
    ratio: number;
    kind: InstructionEventRecord['kind'];
    baselineReleaseId: number;
  }>;
  /** Open instructions events this check shows recovered: closed as fixed by this release. */
  fixedEventIds: number[];
}

/** A stored verdict of the lane, with its session. */
export interface InstructionVerdictRecord extends InstructionVerdict {
  sessionId: number;
}
