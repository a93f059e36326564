/** A queue row as both backends' SQL reads it (the row and its release's columns), and its record. */
import type { QueueState } from '../model/index.js';
import type { QueueRecord, QueueStep } from './queue-types.js';

export interface QueueRow {
  release_id: number;
  slot: string;
  claimed_by: string | null;
  claim_expires_at: string | null;
  upstream: string;
  tag: string;
  version: string;
  version_key: string;
  state: QueueState;
  attempts: number;
  last_error: string | null;
  failures: number;
  failed_step: QueueStep | null;
  next_attempt_at: string | null;
  error_lines: string;
  enqueued_at: string;
  updated_at: string;
}

export const queueFromRow = (r: QueueRow): QueueRecord => ({
  releaseId: r.release_id,
  slot: r.slot,
  claimedBy: r.claimed_by,
  claimExpiresAt: r.claim_expires_at,
  upstream: r.upstream,
  tag: r.tag,
  version: r.version,
  versionKey: r.version_key,
  state: r.state,
  attempts: r.attempts,
  lastError: r.last_error,
  failures: r.failures,
  failedStep: r.failed_step,
  nextAttemptAt: r.next_attempt_at,
  errorLines: JSON.parse(r.error_lines) as string[],
  enqueuedAt: r.enqueued_at,
  updatedAt: r.updated_at,
});
