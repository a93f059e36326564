/**
 * The daemon's persistent work queue, its own small state, and what the quiet-host check saw before a session. A
 * killed daemon resumes from these rows: nothing of the daemon's progress lives only in memory.
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

export interface DaemonStateRecord {
  /** When the last discovery of all upstreams finished; null before the first. */
  lastPollAt: string | null;
  /** The phase the running daemon is in, as it last wrote it; idle when none runs. */
  phase: string;
  phaseSince: string | null;
  /** Why the daemon waits (the quiet-host reasons), or null. */
  detail: string | null;
  /** The daemon process that wrote the phase; status checks it is alive before believing the phase. */
  pid: number | null;
  updatedAt: string | null;
}

export type DaemonStateInput = Partial<Omit<DaemonStateRecord, 'updatedAt'>>;

export interface QuietHostInput {
  sessionId: number;
  /** The last observation before the session (plain JSON: the sampling room's QuietHostObservation). */
  observation: object;
  quiet: boolean;
  /** Why the host was not quiet at the last observation; empty when it was. */
  reasons: string[];
  /** Seconds waited for a quiet host before the session started. */
  waitedSeconds: number;
}

export interface QuietHostRecord extends Omit<QuietHostInput, 'observation'> {
  observation: Record<string, unknown>;
  checkedAt: string;
}
