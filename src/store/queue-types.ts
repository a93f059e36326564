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
  /**
   * Whose row it is: a fleet benchmarks each release once per slot (fleet.ts: a host's name, or its host class). A
   * queue from before fleets has '' until a daemon adopts it.
   */
  slot: string;
  /** The daemon working on the row (building or benchmarking), or null; its claim lapses at claimExpiresAt. */
  claimedBy: string | null;
  claimExpiresAt: string | null;
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
  slot: string;
  releaseId: number;
  to: QueueState;
  /**
   * The state the mover last saw the row in: a row in another state (moved by another daemon since) is refused with
   * QueueStateError, so a daemon that lost its row never moves it on. Absent: any state the machine allows.
   */
  from?: QueueState;
  /** Kept with a move to failed; a move to any other state clears it, except to building or benchmarking. */
  error?: string;
  /**
   * Who moves it. A row in building or benchmarking claimed by another daemon whose claim has not lapsed is theirs:
   * the move is refused with QueueClaimError. Leaving building or benchmarking drops the claim.
   */
  claimant?: string;
}

/** A daemon takes a row to work on it: discovered -> building, or built -> benchmarking, claimed until `until`. */
export interface QueueClaim {
  slot: string;
  releaseId: number;
  to: 'building' | 'benchmarking';
  claimant: string;
  /** ISO 8601: when the claim lapses unless renewed; after that another daemon of the slot may take the row over. */
  until: string;
}

/**
 * A failed attempt of a release's build or session. With `retryAt` the row goes back to the state the step starts
 * from (discovered for a build, built for a session) and waits until then; without it the row is failed for good and
 * `message` (the "could not build/measure" email, if anyone is emailed) is queued in the same transaction.
 */
export interface QueueFailure {
  slot: string;
  releaseId: number;
  /** As in QueueMove: a row another daemon holds is refused. */
  claimant?: string;
  step: QueueStep;
  /** One line for status and logs. */
  error: string;
  errorLines: readonly string[];
  retryAt?: string;
  message?: MessageInput;
}

/** Which half-way rows of a slot go back one step (recoverQueue). */
export interface QueueRecoveryScope {
  slot: string;
  /** Rows this daemon claimed in an earlier life go back at once: the host lock says that process is dead. */
  claimant: string;
  /** Rows whose claim lapsed before this time (ISO 8601) go back too, whoever claimed them. */
  now: string;
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
   * Adds releases to the slot's queue as discovered; releases already queued keep their state. Returns the new rows.
   */
  enqueueReleases(slot: string, releaseIds: readonly number[]): Promise<QueueRecord[]>;
  getQueued(slot: string, releaseId: number): Promise<QueueRecord | undefined>;
  /** The slot's queue (every slot's without one) in version order (version_key, then upstream, then slot). */
  listQueue(slot?: string): Promise<QueueRecord[]>;
  countQueue(slot?: string): Promise<Record<QueueState, number>>;
  /**
   * Takes a row to work on, in one transaction with its row lock: undefined when it is not in the state the claim
   * starts from (another daemon of the slot took it first, or it moved on), so two daemons never work on one row.
   */
  claimQueued(claim: QueueClaim): Promise<QueueRecord | undefined>;
  /** Extends the claimant's claim to `until`; false when the row is no longer its own (lapsed and taken over). */
  renewClaim(claim: Omit<QueueClaim, 'to'>): Promise<boolean>;
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
  /**
   * building -> discovered and benchmarking -> built, for the slot's rows a dead daemon left half-way: its own
   * earlier claims and every lapsed one. Rows of the pre-fleet queue ('') join the slot first. Returns what moved.
   */
  recoverQueue(scope: QueueRecoveryScope): Promise<QueueRecovery>;
}
