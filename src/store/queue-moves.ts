/** The queue's state machine and its claim rule, shared by every backend. */
import type { QueueState } from '../model/index.js';
import { QueueClaimError } from './errors.js';

/** The moves the queue allows; anything else is a bug in the caller and is refused. */
export const NEXT: Record<QueueState, readonly QueueState[]> = {
  discovered: ['building', 'failed'],
  // Back to discovered: a daemon died mid-build. Forward: the build ended.
  building: ['built', 'failed', 'discovered'],
  // Back to discovered: the tag moved upstream and the new commit is built again.
  // Done without a session: the release was checked already (by `qpswatch check`) or is its series' first.
  built: ['benchmarking', 'done', 'failed', 'discovered'],
  benchmarking: ['done', 'failed', 'built'],
  // A rerun asked for by `qpswatch invalid`, or a moved tag.
  done: ['built', 'discovered'],
  failed: ['built', 'discovered'],
};

/** The states a daemon works in, under a claim. */
export const WORKING: readonly QueueState[] = ['building', 'benchmarking'];

export interface ClaimedRow {
  releaseId: number;
  slot: string;
  state: QueueState;
  claimedBy: string | null;
  claimExpiresAt: string | null;
}

/**
 * A row being worked on under another daemon's claim that has not lapsed is theirs: refused. A move without a
 * claimant (a person's command, a test) or of a row nobody claims goes through; so does a lapsed claim's.
 */
export function checkClaim(row: ClaimedRow, claimant: string | undefined, now: string): void {
  if (claimant === undefined || !WORKING.includes(row.state)) return;
  if (row.claimedBy === null || row.claimedBy === claimant) return;
  if (row.claimExpiresAt !== null && row.claimExpiresAt < now) return;
  throw new QueueClaimError(row.releaseId, row.slot, row.claimedBy, row.claimExpiresAt ?? 'never');
}
