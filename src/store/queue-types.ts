/**
 * The daemon's persistent work queue: a killed daemon resumes from these rows, so nothing of its progress lives only
 * in memory. Its own small state is in daemon-state-types.ts, what it saw of the host in quiet-host-types.ts.
 */
import type { QueueState } from '../model/index.js';
import type { MessageInput } from './outbox-types.js';

/** Which step of a release failed: its build, or its session (the benchmark and what leads to it). */
export type QueueStep = 'build' | 'session';

export interface QueueRecord {
  releaseId: number;
  upstream: string;
  tag: string;
  version: string;
  versionKey: string;
  state: QueueState;
  /** How many times a build or a benchmark of the release was started. */
  attempts: number;
  /** Why the last attempt failed, one line; null when none failed. */
  lastError: string | null;
  /** Failed attempts of the current step in a row (the build's, then the session's); a step that succeeds resets it. */
  failures: number;
  /** The step whose attempt failed last; null when none failed. */
  failedStep: QueueStep | null;
  /** When the row may be tried again (ISO 8601); null: at the next cycle. */
  nextAttemptAt: string | null;
  /** The last lines of the last failure (compiler, server or sysbench output, or the error); [] when none failed. */
  errorLines: string[];
  enqueuedAt: string;
  updatedAt: string;
}

export interface QueueMove {
  releaseId: number;
  to: QueueState;
  /** Kept with a move to failed; a move to any other state clears it, except to building or benchmarking. */
  error?: string;
}

/**
 * A failed attempt of a release's build or session. With `retryAt` the row goes back to the state the step starts
 * from (discovered for a build, built for a session) and waits until then; without it the row is failed for good and
 * `message` (the "could not build/measure" email, if anyone is emailed) is queued in the same transaction.
 */
export interface QueueFailure {
  releaseId: number;
  step: QueueStep;
  /** One line for status and logs. */
  error: string;
  errorLines: readonly string[];
  retryAt?: string;
  message?: MessageInput;
}

export interface QueueRecovery {
  /** building -> discovered: the build starts again (a build key is never half-used: the marker is written last). */
  rebuilt: QueueRecord[];
  /** benchmarking -> built: the session was interrupted and is redone. */
  rebenchmarked: QueueRecord[];
}

/** The daemon's queue of releases, moved one step at a time by its state machine. */
export interface QueueStore {
  /**
   * Adds releases to the daemon's queue as discovered; releases already queued keep their state. Returns the new rows.
   */
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
  /**
   * Records a failed attempt (failures + 1): back to the step's start until `retryAt`, or failed with its message
   * queued in one transaction (the message's event key keeps it from being queued twice). A move to built, done or
   * discovered clears the failures; recovery after a dead daemon keeps them.
   */
  failQueued(failure: QueueFailure): Promise<QueueRecord>;
  /** building -> discovered and benchmarking -> built, for rows a dead daemon left half-way; returns what moved. */
  recoverQueue(): Promise<QueueRecovery>;
}
