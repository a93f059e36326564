/**
 * The store: the only state shared between runs, so a killed daemon resumes from it. Records are plain data with
 * camelCase fields and ISO-8601 timestamps as strings; every backend (SQLite now, MySQL later) implements `Store` and
 * passes the same contract tests, which is why every method returns a Promise even where SQLite is synchronous.
 */

import type { PerOp, QueueState, SampleRole, TestId } from '../model/index.js';
import type { BuildInput, BuildRecord, RecordReleasesResult, ReleaseInput, ReleaseRecord } from './release-types.js';
import type {
  CheckInput,
  CheckRecord,
  EventRecord,
  EventState,
  ImportedResultInput,
  ImportedResultRecord,
  OutboxRecord,
  ReleaseSampleRecord,
  RerunRecord,
  TriageInput,
  TriageRecord,
  TriageResult,
  VerdictRecord,
} from './check-types.js';
import type { CalibrationInput, CalibrationRecord } from './calibration-types.js';
import type { JsonObject } from './json-object.js';
import type { DaemonStateInput, DaemonStateRecord, QueueMove, QueueRecord, QueueRecovery, QuietHostInput, QuietHostRecord } from './queue-types.js';

export const sessionStates = ['running', 'done', 'interrupted', 'failed'] as const;
export type SessionState = (typeof sessionStates)[number];

export type SessionKind = 'compare';

export type { JsonObject };

export interface HostInput {
  /** Stable id derived from the fingerprint: results from different ids are never compared. */
  fingerprintId: string;
  fingerprint: object;
}

export interface HostRecord {
  id: number;
  fingerprintId: string;
  fingerprint: JsonObject;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** One side of a session. Targets have no table of their own in this version: each session keeps a copy of both. */
export interface TargetRef {
  name: string;
  flavor: string;
  version: string;
  binary: string;
  serverProfile: string;
  description: JsonObject;
}

export interface SessionInput {
  kind: SessionKind;
  hostId: number;
  baseline: TargetRef;
  candidate: TargetRef;
  suite: string;
  rounds: number;
  /** The process running the session; a `running` session whose pid is gone was interrupted. */
  pid: number;
  settings: object;
}

export interface SessionRecord {
  id: number;
  kind: SessionKind;
  hostId: number;
  state: SessionState;
  baseline: TargetRef;
  candidate: TargetRef;
  suite: string;
  rounds: number;
  pid: number;
  settings: JsonObject;
  /** Why the session failed or was interrupted on purpose; null otherwise. */
  error: string | null;
  startedAt: string;
  /** When the session left `running` (done, failed or found interrupted); null while running. */
  endedAt: string | null;
}

export interface SessionQuery {
  /** At most this many sessions, newest first. */
  limit: number;
  state?: SessionState;
}

export interface DbCounterValue {
  delta: number;
  perOp: number;
}

export interface SampleInput extends TestId, PerOp {
  round: number;
  role: SampleRole;
  targetName: string;
  seconds: number;
  qps: number;
  tps: number;
  latencyAvgMs: number;
  latencyP95Ms: number;
  latencyMaxMs: number;
  errors: number;
  reconnects: number;
  /** cpu/o x CPUs x 1e4: CPU microseconds per operation */
  cpuMicrosPerOp: number;
  /** The raw host usage of the measured interval, kept whole so later questions can be asked of it. */
  host: object;
  dbCounters: Record<string, DbCounterValue>;
}

export interface SampleRecord extends Omit<SampleInput, 'host'> {
  id: number;
  sessionId: number;
  host: JsonObject;
  createdAt: string;
}

export interface Store {
  /** The backend's name, as given to openStore. */
  readonly backend: string;

  /** Inserts the host or refreshes its fingerprint and last-seen time; returns its id either way. */
  upsertHost(input: HostInput): Promise<number>;
  getHost(id: number): Promise<HostRecord | undefined>;

  /** Starts a session in state `running`. */
  createSession(input: SessionInput): Promise<number>;
  /** running -> done. Only a done session's samples count (see completedSamples). */
  finishSession(id: number): Promise<void>;
  /** running -> failed, keeping the reason. */
  failSession(id: number, error: string): Promise<void>;
  /** running -> interrupted: stopped on purpose (SIGINT, SIGTERM); like a crash, it is redone and never counts. */
  interruptSession(id: number, reason: string): Promise<void>;
  getSession(id: number): Promise<SessionRecord | undefined>;
  listSessions(query: SessionQuery): Promise<SessionRecord[]>;
  /** Marks `running` sessions whose pid is not alive as `interrupted`; returns how many were marked. */
  recoverInterrupted(isAlive: (pid: number) => boolean): Promise<number>;

  /** Writes one sample with its host metrics and db counters in one transaction; the session must be running. */
  addSample(sessionId: number, input: SampleInput): Promise<number>;
  /** Every sample of the session, whatever its state, in the order written. */
  samplesForSession(sessionId: number): Promise<SampleRecord[]>;
  /** The session's samples if it is `done`, otherwise none: a half-run session never counts. */
  completedSamples(sessionId: number): Promise<SampleRecord[]>;

  /**
   * Records what discovery saw, in one transaction: new tags are added, a known tag at another commit is marked
   * moved. Tags already known at the same commit change nothing.
   */
  recordReleases(releases: readonly ReleaseInput[]): Promise<RecordReleasesResult>;
  /** Releases in version order (by upstream, then version_key). */
  listReleases(upstream?: string): Promise<ReleaseRecord[]>;
  /** The releases with this tag, one per upstream that has it. */
  findReleasesByTag(tag: string): Promise<ReleaseRecord[]>;
  getRelease(id: number): Promise<ReleaseRecord | undefined>;

  getBuild(buildKey: string): Promise<BuildRecord | undefined>;
  /** A build in state `building`; replaces an earlier failed or unfinished row of the same key. */
  startBuild(input: BuildInput): Promise<BuildRecord>;
  finishBuild(id: number): Promise<BuildRecord>;
  /** Keeps the last lines of the log, so the failure is explained without the log file. */
  failBuild(id: number, failureLines: readonly string[]): Promise<BuildRecord>;
  buildsOfRelease(releaseId: number): Promise<BuildRecord[]>;
  listBuilds(): Promise<BuildRecord[]>;

  /**
   * Records a done session as a check of a release: its verdicts, the regression events it opens and closes (each
   * closed one with a `fixed` triage row by qpswatch) and the messages to send, in one transaction. Satisfies a
   * rerun request for the release.
   */
  recordCheck(input: CheckInput): Promise<CheckRecord>;
  /** Checks in session order, of one upstream's releases or of all. */
  listChecks(upstream?: string): Promise<CheckRecord[]>;
  getCheck(sessionId: number): Promise<CheckRecord | undefined>;
  verdictsOfSession(sessionId: number): Promise<VerdictRecord[]>;
  listEvents(query: { upstream?: string; state?: EventState }): Promise<EventRecord[]>;
  /**
   * A person's word on a release, with its effect, in one transaction. accept: open events of the upstream up to
   * this release are closed as accepted. ack: the release's open events (or one test's) are acknowledged.
   * invalid: the release's checks stop counting, the events they opened are closed as invalid, a rerun is queued.
   */
  triage(input: TriageInput): Promise<TriageResult>;
  listTriage(releaseId?: number): Promise<TriageRecord[]>;
  /** Releases sent back for another check, oldest request first. */
  listReruns(): Promise<RerunRecord[]>;

  /** Pending messages whose next attempt is due at `now` (ISO 8601), oldest first. */
  dueMessages(now: string, limit: number): Promise<OutboxRecord[]>;
  markMessageSent(id: number, detail: string, at: string): Promise<void>;
  markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void>;
  listMessages(state?: OutboxRecord['state']): Promise<OutboxRecord[]>;

  /** All rows or none; a row whose (flavor, version, test, threads) is stored already is refused unless `replace`. */
  importResults(rows: readonly ImportedResultInput[], source: string, options?: { replace?: boolean }): Promise<{ added: number; replaced: number }>;
  listImportedResults(): Promise<ImportedResultRecord[]>;
  /** Samples of done sessions in which a side ran a release of this upstream (invalid checks left out). */
  releaseSamples(upstream: string): Promise<ReleaseSampleRecord[]>;

  /** Adds releases to the daemon's queue as discovered; releases already queued keep their state. Returns the new rows. */
  enqueueReleases(releaseIds: readonly number[]): Promise<QueueRecord[]>;
  getQueued(releaseId: number): Promise<QueueRecord | undefined>;
  /** The queue in version order (version_key, then upstream). */
  listQueue(): Promise<QueueRecord[]>;
  countQueue(): Promise<Record<QueueState, number>>;
  /**
   * One step of a release through the queue; a move the state machine does not allow (or a release not queued)
   * rejects with QueueStateError. Entering building or benchmarking counts an attempt.
   */
  moveQueued(move: QueueMove): Promise<QueueRecord>;
  /** building -> discovered and benchmarking -> built, for rows a dead daemon left half-way; returns what moved. */
  recoverQueue(): Promise<QueueRecovery>;
  getDaemonState(): Promise<DaemonStateRecord>;
  /** Changes only the fields given. */
  setDaemonState(input: DaemonStateInput): Promise<DaemonStateRecord>;
  /** What the quiet-host check saw before a session, and how long the session waited (one row per session). */
  recordQuietHost(input: QuietHostInput): Promise<void>;
  getQuietHost(sessionId: number): Promise<QuietHostRecord | undefined>;

  /** Stores what `qpswatch calibrate` found; the session must be done. */
  recordCalibration(input: CalibrationInput): Promise<CalibrationRecord>;
  /** The newest calibration of the host with this fingerprint id for the suite. */
  latestCalibration(fingerprintId: string, suite: string): Promise<CalibrationRecord | undefined>;
  /** Every calibration of the host with this fingerprint id, newest first. */
  calibrationsOfHost(fingerprintId: string): Promise<CalibrationRecord[]>;

  /** Idempotent; later calls to other methods reject with StoreClosedError. */
  close(): Promise<void>;
}
