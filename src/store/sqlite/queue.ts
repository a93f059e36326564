import type { QueueState } from '../../model/index.js';
import { QueueStateError, ReleaseNotFoundError } from '../errors.js';
import type {
  QueueClaim,
  QueueFailure,
  QueueMove,
  QueueRecord,
  QueueRecovery,
  QueueRecoveryScope,
  QueueStore,
} from '../queue-types.js';
import { checkClaim, NEXT, WORKING } from '../queue-moves.js';
import { queueFromRow, type QueueRow } from '../queue-row.js';
import {
  parseQueueClaim,
  parseQueueFailure,
  parseQueueMove,
  parseQueueRenewal,
  parseQueueScope,
  parseQueueSlot,
} from '../validate-queue.js';
import { checkId } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import { messageQueuer } from './outbox.js';

const SELECT_QUEUE =
  `SELECT q.*, r.upstream, r.tag, r.version, r.version_key FROM ` +
  `release_queue q JOIN releases r ON r.id = q.release_id`;
// Version order across upstreams: the sortable key first, the upstream name to break ties, then the slot.
const ORDER = 'ORDER BY r.version_key, r.upstream, q.slot';

/**
 * The release queue: one row per release and fleet slot, moved by the state machine of queue-moves.ts. A write
 * transaction of SQLite is the whole file's, so a claim and the state it checks are read and written as one.
 */
export class SqliteQueue extends SqliteRole implements QueueStore {
  readonly #queueMessage = messageQueuer(this.connection);
  readonly #sql = this.statements({
    enqueue: `INSERT INTO release_queue (release_id, slot, state, enqueued_at, updated_at)
      VALUES (@id, @slot, 'discovered', @at, @at) ON CONFLICT (release_id, slot) DO NOTHING`,
    get: `${SELECT_QUEUE} WHERE q.release_id = @id AND q.slot = @slot`,
    release: 'SELECT 1 FROM releases WHERE id = ?',
    list: `${SELECT_QUEUE} WHERE (@slot IS NULL OR q.slot = @slot) ${ORDER}`,
    counts: 'SELECT state, COUNT(*) AS n FROM release_queue WHERE (@slot IS NULL OR slot = @slot) GROUP BY state',
    move: `UPDATE release_queue SET state = @to, updated_at = @at,
      attempts = attempts + CASE WHEN @to IN ('building', 'benchmarking') THEN 1 ELSE 0 END,
      last_error = CASE WHEN @to = 'failed' THEN @error WHEN @to IN ('building', 'benchmarking') OR @keep = 1 THEN
        last_error ELSE NULL END,
      failures = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN 0 ELSE failures END,
      failed_step = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN NULL ELSE failed_step END,
      next_attempt_at = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN NULL ELSE next_attempt_at
        END,
      error_lines = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN '[]' ELSE error_lines END,
      claimed_by = @claimant, claim_expires_at = @until
      WHERE release_id = @id AND slot = @slot AND state = @from`,
    fail: `UPDATE release_queue SET state = @to, updated_at = @at, failures = failures + 1, failed_step = @step,
      next_attempt_at = @retryAt, last_error = @error, error_lines = @lines, claimed_by = NULL, claim_expires_at = NULL
      WHERE release_id = @id AND slot = @slot AND state = @from`,
    renew: `UPDATE release_queue SET claim_expires_at = @until WHERE release_id = @id AND slot = @slot
      AND claimed_by = @claimant AND state IN ('building', 'benchmarking')`,
    // A pre-fleet queue joins the first slot that recovers; a release that slot has already stays in ''.
    adopt: `UPDATE OR IGNORE release_queue SET slot = @slot WHERE slot = ''`,
    halfWay: `${SELECT_QUEUE} WHERE q.slot = @slot AND q.state IN ('building', 'benchmarking')
      AND (q.claimed_by IS NULL OR q.claimed_by = @claimant OR q.claim_expires_at < @now) ${ORDER}`,
  });

  /** Returns the rows added: releases already queued in the slot keep their state, whatever it is. */
  async enqueueReleases(slot: string, releaseIds: readonly number[]): Promise<QueueRecord[]> {
    const valid = parseQueueSlot(slot);
    for (const id of releaseIds) checkId('queue', 'releaseId', id);
    return this.write('enqueue releases', () => {
      const at = nowIso();
      const added: QueueRecord[] = [];
      for (const id of releaseIds) {
        if (this.#sql.release.get(id) === undefined) throw new ReleaseNotFoundError(`#${id}`);
        if (this.#sql.enqueue.run({ id, slot: valid, at }).changes > 0) added.push(this.#get(valid, id)!);
      }
      return added;
    });
  }

  async getQueued(slot: string, releaseId: number): Promise<QueueRecord | undefined> {
    const valid = parseQueueSlot(slot);
    checkId('queue', 'releaseId', releaseId);
    return this.read('read the queue', () => this.#get(valid, releaseId));
  }

  async listQueue(slot?: string): Promise<QueueRecord[]> {
    const valid = slot === undefined ? null : parseQueueSlot(slot);
    return this.read('read the queue', () => (this.#sql.list.all({ slot: valid }) as QueueRow[]).map(queueFromRow));
  }

  async countQueue(slot?: string): Promise<Record<QueueState, number>> {
    const valid = slot === undefined ? null : parseQueueSlot(slot);
    return this.read('count the queue', () => {
      const out: Record<QueueState, number> = {
        discovered: 0,
        building: 0,
        built: 0,
        benchmarking: 0,
        done: 0,
        failed: 0,
      };
      const counts = this.#sql.counts.all({ slot: valid }) as Array<{ state: QueueState; n: number }>;
      for (const { state, n } of counts) out[state] = n;
      return out;
    });
  }

  async moveQueued(move: QueueMove): Promise<QueueRecord> {
    const valid = parseQueueMove(move);
    return this.write('move a queued release', () => this.#move(valid, nowIso()));
  }

  async claimQueued(claim: QueueClaim): Promise<QueueRecord | undefined> {
    const valid = parseQueueClaim(claim);
    const from = valid.to === 'building' ? 'discovered' : 'built';
    return this.write('claim a queued release', () => {
      const current = this.#get(valid.slot, valid.releaseId);
      if (current?.state !== from) return undefined;
      const { slot, releaseId, to, claimant, until } = valid;
      return this.#move({ slot, releaseId, to, claimant }, nowIso(), false, until);
    });
  }

  async renewClaim(claim: Omit<QueueClaim, 'to'>): Promise<boolean> {
    const { slot, releaseId: id, claimant, until } = parseQueueRenewal(claim);
    return this.write('renew a claim', () => this.#sql.renew.run({ slot, id, claimant, until }).changes > 0);
  }

  /**
   * What a dead daemon left half-way goes back one step, so the next cycle does it again from the start: this
   * daemon's own earlier claims, rows nobody claimed (a store from before claims) and every lapsed claim.
   */
  async recoverQueue(scope: QueueRecoveryScope): Promise<QueueRecovery> {
    const { slot, claimant, now } = parseQueueScope(scope);
    return this.write('recover the queue', () => {
      if (slot !== '') this.#sql.adopt.run({ slot });
      const at = nowIso();
      const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
      for (const row of (this.#sql.halfWay.all({ slot, claimant, now }) as QueueRow[]).map(queueFromRow)) {
        const to = row.state === 'building' ? 'discovered' : 'built';
        // Kept: a daemon killed by a release (out of memory) must still run out of attempts.
        const moved = this.#move({ slot, releaseId: row.releaseId, to }, at, true);
        (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
      }
      return out;
    });
  }

  async failQueued(failure: QueueFailure): Promise<QueueRecord> {
    const valid = parseQueueFailure(failure);
    return this.write('record a failed attempt', () => {
      const at = nowIso();
      const current = this.#get(valid.slot, valid.releaseId);
      const to = valid.retryAt === undefined ? 'failed' : valid.step === 'build' ? 'discovered' : 'built';
      // Back to the state it is in is allowed too: a session can fail before its row leaves built (the quiet-host
      // wait).
      if (current === undefined || (current.state !== to && !NEXT[current.state].includes(to)))
        throw new QueueStateError(valid.releaseId, current?.state, to);
      checkClaim(current, valid.claimant, at);
      this.#sql.fail.run({
        id: valid.releaseId,
        slot: valid.slot,
        from: current.state,
        to,
        step: valid.step,
        retryAt: valid.retryAt ?? null,
        error: valid.error,
        lines: JSON.stringify(valid.errorLines),
        at,
      });
      if (to === 'failed' && valid.message !== undefined) this.#queueMessage(valid.message, at);
      return this.#get(valid.slot, valid.releaseId)!;
    });
  }

  #get(slot: string, releaseId: number): QueueRecord | undefined {
    const row = this.#sql.get.get({ id: releaseId, slot }) as QueueRow | undefined;
    return row && queueFromRow(row);
  }

  /** A move; entering building or benchmarking claims the row for the claimant until `until`, any other drops it. */
  #move(move: QueueMove, at: string, keepFailures = false, until?: string): QueueRecord {
    const current = this.#get(move.slot, move.releaseId);
    if (
      current === undefined ||
      !NEXT[current.state].includes(move.to) ||
      (move.from !== undefined && move.from !== current.state)
    )
      throw new QueueStateError(move.releaseId, current?.state, move.to);
    checkClaim(current, move.claimant, at);
    const working = WORKING.includes(move.to);
    this.#sql.move.run({
      id: move.releaseId,
      slot: move.slot,
      from: current.state,
      to: move.to,
      error: move.error ?? null,
      keep: keepFailures ? 1 : 0,
      claimant: working ? (move.claimant ?? null) : null,
      until: working ? (until ?? null) : null,
      at,
    });
    return this.#get(move.slot, move.releaseId)!;
  }
}
