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
import { nowIso, SqlRole, type SqlDialect, type SqlTx } from '../sql.js';
import { queueMessage } from './outbox.js';

const SELECT_QUEUE =
  'SELECT q.*, r.upstream, r.tag, r.version, r.version_key FROM release_queue q JOIN releases r ON r.id = q.release_id';
// Version order across upstreams: the sortable key first, the upstream name to break ties, then the slot.
const VERSION_ORDER = 'ORDER BY r.version_key, r.upstream, q.slot';

/** A move clears the failures it ended, unless kept (recovery); it keeps the last error of a start or a kept move. */
const MOVE = `UPDATE release_queue SET state = ?, updated_at = ?,
  attempts = attempts + CASE WHEN ? IN ('building', 'benchmarking') THEN 1 ELSE 0 END,
  last_error = CASE WHEN ? = 'failed' THEN ? WHEN ? IN ('building', 'benchmarking') OR ? = 1 THEN last_error ELSE NULL
    END,
  failures = CASE WHEN ? THEN 0 ELSE failures END,
  failed_step = CASE WHEN ? THEN NULL ELSE failed_step END,
  next_attempt_at = CASE WHEN ? THEN NULL ELSE next_attempt_at END,
  error_lines = CASE WHEN ? THEN '[]' ELSE error_lines END,
  claimed_by = ?, claim_expires_at = ?
  WHERE release_id = ? AND slot = ? AND state = ?`;

/**
 * The release queue: one row per release and fleet slot, moved by the state machine of queue-moves.ts. Every write
 * is one writer at a time (SQLite's IMMEDIATE transaction, MySQL's write lock), and a move reads the row's state
 * locked (the dialect's lockRows): two daemons on one database never both take a release from the same state
 * (claimQueued).
 */
export class Queue extends SqlRole implements QueueStore {
  /** Returns the rows added: releases already queued in the slot keep their state, whatever it is. */
  async enqueueReleases(slot: string, releaseIds: readonly number[]): Promise<QueueRecord[]> {
    const valid = parseQueueSlot(slot);
    for (const id of releaseIds) checkId('queue', 'releaseId', id);
    return this.write('enqueue releases', async (tx) => {
      const at = nowIso();
      const added: QueueRecord[] = [];
      for (const id of releaseIds) {
        if ((await tx.row('SELECT 1 AS one FROM releases WHERE id = ?', [id])) === undefined)
          throw new ReleaseNotFoundError(`#${id}`);
        // A release queued already keeps its row; one writer at a time, so nothing can queue it in between.
        if ((await get(tx, valid, id)) !== undefined) continue;
        await tx.run(
          `INSERT INTO release_queue (release_id, slot, state, enqueued_at, updated_at)
            VALUES (?, ?, 'discovered', ?, ?)`,
          [id, valid, at, at],
        );
        added.push((await get(tx, valid, id))!);
      }
      return added;
    });
  }

  async getQueued(slot: string, releaseId: number): Promise<QueueRecord | undefined> {
    const valid = parseQueueSlot(slot);
    checkId('queue', 'releaseId', releaseId);
    return this.read('read the queue', (tx) => get(tx, valid, releaseId));
  }

  async listQueue(slot?: string): Promise<QueueRecord[]> {
    const valid = slot === undefined ? null : parseQueueSlot(slot);
    return this.read('read the queue', async (tx) =>
      (await tx.rows<QueueRow>(`${SELECT_QUEUE} WHERE (? IS NULL OR q.slot = ?) ${VERSION_ORDER}`, [valid, valid])).map(
        queueFromRow,
      ),
    );
  }

  async countQueue(slot?: string): Promise<Record<QueueState, number>> {
    const valid = slot === undefined ? null : parseQueueSlot(slot);
    return this.read('count the queue', async (tx) => {
      const out: Record<QueueState, number> = {
        discovered: 0,
        building: 0,
        built: 0,
        benchmarking: 0,
        done: 0,
        failed: 0,
      };
      const counts = await tx.rows<{ state: QueueState; n: number | string }>(
        'SELECT state, COUNT(*) AS n FROM release_queue WHERE (? IS NULL OR slot = ?) GROUP BY state',
        [valid, valid],
      );
      // COUNT(*) is a BIGINT, which a driver may hand over as a string.
      for (const { state, n } of counts) out[state] = Number(n);
      return out;
    });
  }

  async moveQueued(move: QueueMove): Promise<QueueRecord> {
    const valid = parseQueueMove(move);
    return this.write('move a queued release', (tx) => moveRow(tx, this.dialect, valid, nowIso()));
  }

  async claimQueued(claim: QueueClaim): Promise<QueueRecord | undefined> {
    const { slot, releaseId, to, claimant, until } = parseQueueClaim(claim);
    const from = to === 'building' ? 'discovered' : 'built';
    return this.write('claim a queued release', async (tx) => {
      if ((await lockedRow(tx, this.dialect, slot, releaseId))?.state !== from) return undefined;
      return moveRow(tx, this.dialect, { slot, releaseId, to, claimant }, nowIso(), false, until);
    });
  }

  async renewClaim(claim: Omit<QueueClaim, 'to'>): Promise<boolean> {
    const { slot, releaseId, claimant, until } = parseQueueRenewal(claim);
    return this.write('renew a claim', async (tx) => {
      const { affectedRows } = await tx.run(
        `UPDATE release_queue SET claim_expires_at = ? WHERE release_id = ? AND slot = ? AND claimed_by = ?
          AND state IN ('building', 'benchmarking')`,
        [until, releaseId, slot, claimant],
      );
      return affectedRows > 0;
    });
  }

  /**
   * What a dead daemon left half-way goes back one step, so the next cycle does it again from the start: this
   * daemon's own earlier claims, rows nobody claimed and every lapsed claim, whoever's.
   */
  async recoverQueue(scope: QueueRecoveryScope): Promise<QueueRecovery> {
    const { slot, claimant, now } = parseQueueScope(scope);
    return this.write('recover the queue', async (tx) => {
      // A queue copied from a pre-fleet store joins the first slot that recovers; a release the slot has stays.
      if (slot !== '') await adoptPreFleetRows(tx, slot);
      const at = nowIso();
      const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
      // Locked as read: another host's recovery or move waits, then finds the row moved already.
      const halfWay = await tx.rows<QueueRow>(
        `${SELECT_QUEUE} WHERE q.slot = ? AND q.state IN ('building', 'benchmarking')
          AND (q.claimed_by IS NULL OR q.claimed_by = ? OR q.claim_expires_at < ?) ${VERSION_ORDER}` +
          this.dialect.lockRows,
        [slot, claimant, now],
      );
      for (const row of halfWay.map(queueFromRow)) {
        const to = row.state === 'building' ? 'discovered' : 'built';
        // Kept: a daemon killed by a release (out of memory) must still run out of attempts.
        const moved = await moveRow(tx, this.dialect, { slot, releaseId: row.releaseId, to }, at, true);
        (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
      }
      return out;
    });
  }

  async failQueued(failure: QueueFailure): Promise<QueueRecord> {
    const valid = parseQueueFailure(failure);
    return this.write('record a failed attempt', async (tx) => {
      const at = nowIso();
      const current = await lockedRow(tx, this.dialect, valid.slot, valid.releaseId);
      const to = valid.retryAt === undefined ? 'failed' : valid.step === 'build' ? 'discovered' : 'built';
      // Back to the state it is in is allowed too: a session can fail before its row leaves built (the quiet-host
      // wait).
      if (current === undefined || (current.state !== to && !NEXT[current.state].includes(to)))
        throw new QueueStateError(valid.releaseId, current?.state, to);
      checkClaim(current, valid.claimant, at);
      await tx.run(
        `UPDATE release_queue SET state = ?, updated_at = ?, failures = failures + 1, failed_step = ?,
          next_attempt_at = ?, last_error = ?, error_lines = ?, claimed_by = NULL, claim_expires_at = NULL
          WHERE release_id = ? AND slot = ? AND state = ?`,
        [
          to,
          at,
          valid.step,
          valid.retryAt ?? null,
          valid.error,
          JSON.stringify(valid.errorLines),
          valid.releaseId,
          valid.slot,
          current.state,
        ],
      );
      if (to === 'failed' && valid.message !== undefined) await queueMessage(tx, this.dialect, valid.message, at);
      return (await get(tx, valid.slot, valid.releaseId))!;
    });
  }
}

/** The pre-fleet rows (slot '') move to `slot`, but for releases the slot has already: those stay where they are. */
async function adoptPreFleetRows(tx: SqlTx, slot: string): Promise<void> {
  const preFleet = await tx.rows<{ release_id: number }>("SELECT release_id FROM release_queue WHERE slot = ''");
  for (const { release_id: releaseId } of preFleet)
    if (
      (await tx.row('SELECT 1 AS one FROM release_queue WHERE release_id = ? AND slot = ?', [releaseId, slot])) ===
      undefined
    )
      await tx.run("UPDATE release_queue SET slot = ? WHERE release_id = ? AND slot = ''", [slot, releaseId]);
}

async function get(tx: SqlTx, slot: string, releaseId: number): Promise<QueueRecord | undefined> {
  const row = await tx.row<QueueRow>(`${SELECT_QUEUE} WHERE q.release_id = ? AND q.slot = ?`, [releaseId, slot]);
  return row && queueFromRow(row);
}

interface LockedRow {
  releaseId: number;
  slot: string;
  state: QueueState;
  claimedBy: string | null;
  claimExpiresAt: string | null;
}

/** The row's state and claim, locked until the transaction ends; undefined when the release is not queued. */
async function lockedRow(
  tx: SqlTx,
  dialect: SqlDialect,
  slot: string,
  releaseId: number,
): Promise<LockedRow | undefined> {
  const row = await tx.row<{ state: QueueState; claimed_by: string | null; claim_expires_at: string | null }>(
    'SELECT state, claimed_by, claim_expires_at FROM release_queue WHERE release_id = ? AND slot = ?' +
      dialect.lockRows,
    [releaseId, slot],
  );
  return row && { releaseId, slot, state: row.state, claimedBy: row.claimed_by, claimExpiresAt: row.claim_expires_at };
}

/** A move; entering building or benchmarking claims the row for the claimant until `until`, any other drops it. */
async function moveRow(
  tx: SqlTx,
  dialect: SqlDialect,
  move: QueueMove,
  at: string,
  keepFailures = false,
  until?: string,
): Promise<QueueRecord> {
  const current = await lockedRow(tx, dialect, move.slot, move.releaseId);
  if (
    current === undefined ||
    !NEXT[current.state].includes(move.to) ||
    (move.from !== undefined && move.from !== current.state)
  )
    throw new QueueStateError(move.releaseId, current?.state, move.to);
  checkClaim(current, move.claimant, at);
  const to = move.to;
  const keep = keepFailures ? 1 : 0;
  const clear = ['built', 'done', 'discovered'].includes(to) && !keepFailures ? 1 : 0;
  const working = WORKING.includes(to);
  await tx.run(MOVE, [
    to,
    at,
    to,
    to,
    move.error ?? null,
    to,
    keep,
    clear,
    clear,
    clear,
    clear,
    working ? (move.claimant ?? null) : null,
    working ? (until ?? null) : null,
    move.releaseId,
    move.slot,
    current.state,
  ]);
  return (await get(tx, move.slot, move.releaseId))!;
}
