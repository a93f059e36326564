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
import { MysqlRole, nowIso, type MysqlTx } from './connection.js';
import { queueMessage } from '../roles/outbox.js';
import { mysqlDialect } from './dialect.js';

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
 * first takes the connection's write lock, and a move reads the row's state FOR UPDATE: two daemons on one database
 * never both take a release from the same state (claimQueued), whichever server (MySQL 8, MariaDB 10.6+) it is.
 */
export class MysqlQueue extends MysqlRole implements QueueStore {
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
        // IGNORE: a row already queued is the one duplicate this can meet (the release was read just above), and its
        // affected rows (0) tell it apart from a row added, which ON DUPLICATE KEY does not under CLIENT_FOUND_ROWS.
        const { affectedRows } = await tx.run(
          `INSERT IGNORE INTO release_queue (release_id, slot, state, enqueued_at, updated_at)
            VALUES (?, ?, 'discovered', ?, ?)`,
          [id, valid, at, at],
        );
        if (affectedRows > 0) added.push((await get(tx, valid, id))!);
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
    return this.write('move a queued release', (tx) => moveRow(tx, valid, nowIso()));
  }

  async claimQueued(claim: QueueClaim): Promise<QueueRecord | undefined> {
    const { slot, releaseId, to, claimant, until } = parseQueueClaim(claim);
    const from = to === 'building' ? 'discovered' : 'built';
    return this.write('claim a queued release', async (tx) => {
      if ((await lockedRow(tx, slot, releaseId))?.state !== from) return undefined;
      return moveRow(tx, { slot, releaseId, to, claimant }, nowIso(), false, until);
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
      // A queue copied from a pre-fleet store joins the first slot that recovers (IGNORE: a release it has stays).
      if (slot !== '') await tx.run("UPDATE IGNORE release_queue SET slot = ? WHERE slot = ''", [slot]);
      const at = nowIso();
      const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
      // Locked as read: another host's recovery or move waits, then finds the row moved already.
      const halfWay = await tx.rows<QueueRow>(
        `${SELECT_QUEUE} WHERE q.slot = ? AND q.state IN ('building', 'benchmarking')
          AND (q.claimed_by IS NULL OR q.claimed_by = ? OR q.claim_expires_at < ?) ${VERSION_ORDER} FOR UPDATE`,
        [slot, claimant, now],
      );
      for (const row of halfWay.map(queueFromRow)) {
        const to = row.state === 'building' ? 'discovered' : 'built';
        // Kept: a daemon killed by a release (out of memory) must still run out of attempts.
        const moved = await moveRow(tx, { slot, releaseId: row.releaseId, to }, at, true);
        (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
      }
      return out;
    });
  }

  async failQueued(failure: QueueFailure): Promise<QueueRecord> {
    const valid = parseQueueFailure(failure);
    return this.write('record a failed attempt', async (tx) => {
      const at = nowIso();
      const current = await lockedRow(tx, valid.slot, valid.releaseId);
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
      if (to === 'failed' && valid.message !== undefined) await queueMessage(tx, mysqlDialect, valid.message, at);
      return (await get(tx, valid.slot, valid.releaseId))!;
    });
  }
}

async function get(tx: MysqlTx, slot: string, releaseId: number): Promise<QueueRecord | undefined> {
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
async function lockedRow(tx: MysqlTx, slot: string, releaseId: number): Promise<LockedRow | undefined> {
  const row = await tx.row<{ state: QueueState; claimed_by: string | null; claim_expires_at: string | null }>(
    'SELECT state, claimed_by, claim_expires_at FROM release_queue WHERE release_id = ? AND slot = ? FOR UPDATE',
    [releaseId, slot],
  );
  return row && { releaseId, slot, state: row.state, claimedBy: row.claimed_by, claimExpiresAt: row.claim_expires_at };
}

/** A move; entering building or benchmarking claims the row for the claimant until `until`, any other drops it. */
async function moveRow(
  tx: MysqlTx,
  move: QueueMove,
  at: string,
  keepFailures = false,
  until?: string,
): Promise<QueueRecord> {
  const current = await lockedRow(tx, move.slot, move.releaseId);
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
