import type { QueueState } from '../../model/index.js';
import { QueueStateError, ReleaseNotFoundError } from '../errors.js';
import type { QueueFailure, QueueMove, QueueRecord, QueueRecovery, QueueStep, QueueStore } from '../queue-types.js';
import { parseQueueFailure, parseQueueMove } from '../validate-queue.js';
import { checkId } from '../validate.js';
import { MysqlRole, nowIso, type MysqlTx } from './connection.js';
import { queueMessage } from './outbox.js';

interface QueueRow {
  release_id: number;
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

/** The moves the queue allows; anything else is a bug in the caller and is refused. */
const NEXT: Record<QueueState, readonly QueueState[]> = {
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

const queueFromRow = (r: QueueRow): QueueRecord => ({
  releaseId: r.release_id,
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

const SELECT_QUEUE =
  'SELECT q.*, r.upstream, r.tag, r.version, r.version_key FROM release_queue q JOIN releases r ON r.id = q.release_id';
// Version order across upstreams: the sortable key first, the upstream name to break ties.
const VERSION_ORDER = 'ORDER BY r.version_key, r.upstream';

/** A move clears the failures it ended, unless kept (recovery); it keeps the last error of a start or a kept move. */
const MOVE = `UPDATE release_queue SET state = ?, updated_at = ?,
  attempts = attempts + CASE WHEN ? IN ('building', 'benchmarking') THEN 1 ELSE 0 END,
  last_error = CASE WHEN ? = 'failed' THEN ? WHEN ? IN ('building', 'benchmarking') OR ? = 1 THEN last_error ELSE NULL
    END,
  failures = CASE WHEN ? THEN 0 ELSE failures END,
  failed_step = CASE WHEN ? THEN NULL ELSE failed_step END,
  next_attempt_at = CASE WHEN ? THEN NULL ELSE next_attempt_at END,
  error_lines = CASE WHEN ? THEN '[]' ELSE error_lines END
  WHERE release_id = ? AND state = ?`;

/**
 * The release queue: one row per release the daemon works on, moved by the state machine above. Besides the
 * connection's write lock, a move reads the row's state FOR UPDATE: two daemons on one database must never both take
 * a release from the same state, and the row lock says so where the move is made.
 */
export class MysqlQueue extends MysqlRole implements QueueStore {
  /** Returns the rows added: releases already queued keep their state, whatever it is. */
  async enqueueReleases(releaseIds: readonly number[]): Promise<QueueRecord[]> {
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
          `INSERT IGNORE INTO release_queue (release_id, state, enqueued_at, updated_at)
            VALUES (?, 'discovered', ?, ?)`,
          [id, at, at],
        );
        if (affectedRows > 0) added.push((await get(tx, id))!);
      }
      return added;
    });
  }

  async getQueued(releaseId: number): Promise<QueueRecord | undefined> {
    checkId('queue', 'releaseId', releaseId);
    return this.read('read the queue', (tx) => get(tx, releaseId));
  }

  async listQueue(): Promise<QueueRecord[]> {
    return this.read('read the queue', async (tx) =>
      (await tx.rows<QueueRow>(`${SELECT_QUEUE} ${VERSION_ORDER}`)).map(queueFromRow),
    );
  }

  async countQueue(): Promise<Record<QueueState, number>> {
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
        'SELECT state, COUNT(*) AS n FROM release_queue GROUP BY state',
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

  /** What a dead daemon left half-way goes back one step, so the next cycle does it again from the start. */
  async recoverQueue(): Promise<QueueRecovery> {
    return this.write('recover the queue', async (tx) => {
      const at = nowIso();
      const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
      // Locked as read: another host's recovery or move waits, then finds the row moved already.
      const halfWay = await tx.rows<QueueRow>(
        `${SELECT_QUEUE} WHERE q.state IN ('building', 'benchmarking') ${VERSION_ORDER} FOR UPDATE`,
      );
      for (const row of halfWay.map(queueFromRow)) {
        const to = row.state === 'building' ? 'discovered' : 'built';
        // Kept: a daemon killed by a release (out of memory) must still run out of attempts.
        const moved = await moveRow(tx, { releaseId: row.releaseId, to }, at, true);
        (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
      }
      return out;
    });
  }

  async failQueued(failure: QueueFailure): Promise<QueueRecord> {
    const valid = parseQueueFailure(failure);
    return this.write('record a failed attempt', async (tx) => {
      const at = nowIso();
      const from = await lockedState(tx, valid.releaseId);
      const to = valid.retryAt === undefined ? 'failed' : valid.step === 'build' ? 'discovered' : 'built';
      // Back to the state it is in is allowed too: a session can fail before its row leaves built (the quiet-host
      // wait).
      if (from === undefined || (from !== to && !NEXT[from].includes(to)))
        throw new QueueStateError(valid.releaseId, from, to);
      await tx.run(
        `UPDATE release_queue SET state = ?, updated_at = ?, failures = failures + 1, failed_step = ?,
          next_attempt_at = ?, last_error = ?, error_lines = ? WHERE release_id = ? AND state = ?`,
        [
          to,
          at,
          valid.step,
          valid.retryAt ?? null,
          valid.error,
          JSON.stringify(valid.errorLines),
          valid.releaseId,
          from,
        ],
      );
      if (to === 'failed' && valid.message !== undefined) await queueMessage(tx, valid.message, at);
      return (await get(tx, valid.releaseId))!;
    });
  }
}

async function get(tx: MysqlTx, releaseId: number): Promise<QueueRecord | undefined> {
  const row = await tx.row<QueueRow>(`${SELECT_QUEUE} WHERE q.release_id = ?`, [releaseId]);
  return row && queueFromRow(row);
}

/** The row's state, locked until the transaction ends; undefined when the release is not queued. */
async function lockedState(tx: MysqlTx, releaseId: number): Promise<QueueState | undefined> {
  return (
    await tx.row<{ state: QueueState }>('SELECT state FROM release_queue WHERE release_id = ? FOR UPDATE', [releaseId])
  )?.state;
}

async function moveRow(tx: MysqlTx, move: QueueMove, at: string, keepFailures = false): Promise<QueueRecord> {
  const from = await lockedState(tx, move.releaseId);
  if (from === undefined || !NEXT[from].includes(move.to)) throw new QueueStateError(move.releaseId, from, move.to);
  const to = move.to;
  const keep = keepFailures ? 1 : 0;
  const clear = ['built', 'done', 'discovered'].includes(to) && !keepFailures ? 1 : 0;
  await tx.run(MOVE, [to, at, to, to, move.error ?? null, to, keep, clear, clear, clear, clear, move.releaseId, from]);
  return (await get(tx, move.releaseId))!;
}
