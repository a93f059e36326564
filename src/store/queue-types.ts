/**
 * The daemon's persistent work queue: a killed daemon resumes from these rows, so nothing of its progress lives only
 * in memory. Its own small state is in daemon-state-types.ts, what it saw of the host in quiet-host-types.ts.
 */
import type { QueueState } from '../model/index.js';

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
  enqueuedAt: string;
  updatedAt: string;
}

export interface QueueMove {
  releaseId: number;
  to: QueueState;
  /** Kept with a move to failed; a move to any other state clears it, except to building or benchmarking. */
  error?: string;
}

export interface QueueRecovery {
  /** building -> discovered: the build starts again (a build key is never half-used: the marker is written last). */
  rebuilt: QueueRecord[];
  /** benchmarking -> built: the session was interrupted and is redone. */
  rebenchmarked: QueueRecord[];
}

/** The daemon's queue of releases, moved one step at a time by its state machine. */
export interface QueueStore {
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
}
