import type { QueueState } from '../../model/index.js';
import { QueueStateError, ReleaseNotFoundError } from '../errors.js';
import type { QueueFailure, QueueMove, QueueRecord, QueueRecovery, QueueStep, QueueStore } from '../queue-types.js';
import { parseQueueFailure, parseQueueMove } from '../validate-queue.js';
import { checkId } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import { messageQueuer } from './outbox.js';

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
  `SELECT q.*, r.upstream, r.tag, r.version, r.version_key FROM ` +
  `release_queue q JOIN releases r ON r.id = q.release_id`;

/** The release queue: one row per release the daemon works on, moved by the state machine above. */
export class SqliteQueue extends SqliteRole implements QueueStore {
  readonly #queueMessage = messageQueuer(this.connection);
  readonly #sql = this.statements({
    enqueue: `INSERT INTO release_queue (release_id, state, enqueued_at, updated_at) VALUES (@id, 'discovered', @at,
      @at)
      ON CONFLICT (release_id) DO NOTHING`,
    get: `${SELECT_QUEUE} WHERE q.release_id = ?`,
    release: 'SELECT 1 FROM releases WHERE id = ?',
    // Version order across upstreams: the sortable key first, the upstream name to break ties.
    list: `${SELECT_QUEUE} ORDER BY r.version_key, r.upstream`,
    counts: 'SELECT state, COUNT(*) AS n FROM release_queue GROUP BY state',
    move: `UPDATE release_queue SET state = @to, updated_at = @at,
      attempts = attempts + CASE WHEN @to IN ('building', 'benchmarking') THEN 1 ELSE 0 END,
      last_error = CASE WHEN @to = 'failed' THEN @error WHEN @to IN ('building', 'benchmarking') OR @keep = 1 THEN
        last_error ELSE NULL END,
      failures = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN 0 ELSE failures END,
      failed_step = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN NULL ELSE failed_step END,
      next_attempt_at = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN NULL ELSE next_attempt_at
        END,
      error_lines = CASE WHEN @to IN ('built', 'done', 'discovered') AND @keep = 0 THEN '[]' ELSE error_lines END
      WHERE release_id = @id AND state = @from`,
    fail: `UPDATE release_queue SET state = @to, updated_at = @at, failures = failures + 1, failed_step = @step,
      next_attempt_at = @retryAt, last_error = @error, error_lines = @lines WHERE release_id = @id AND state = @from`,
    halfWay: `${SELECT_QUEUE} WHERE q.state IN ('building', 'benchmarking') ORDER BY r.version_key, r.upstream`,
  });

  /** Returns the rows added: releases already queued keep their state, whatever it is. */
  async enqueueReleases(releaseIds: readonly number[]): Promise<QueueRecord[]> {
    for (const id of releaseIds) checkId('queue', 'releaseId', id);
    return this.write('enqueue releases', () => {
      const at = nowIso();
      const added: QueueRecord[] = [];
      for (const id of releaseIds) {
        if (this.#sql.release.get(id) === undefined) throw new ReleaseNotFoundError(`#${id}`);
        if (this.#sql.enqueue.run({ id, at }).changes > 0) added.push(this.#get(id)!);
      }
      return added;
    });
  }

  async getQueued(releaseId: number): Promise<QueueRecord | undefined> {
    checkId('queue', 'releaseId', releaseId);
    return this.read('read the queue', () => this.#get(releaseId));
  }

  async listQueue(): Promise<QueueRecord[]> {
    return this.read('read the queue', () => (this.#sql.list.all() as QueueRow[]).map(queueFromRow));
  }

  async countQueue(): Promise<Record<QueueState, number>> {
    return this.read('count the queue', () => {
      const out: Record<QueueState, number> = {
        discovered: 0,
        building: 0,
        built: 0,
        benchmarking: 0,
        done: 0,
        failed: 0,
      };
      for (const { state, n } of this.#sql.counts.all() as Array<{ state: QueueState; n: number }>) out[state] = n;
      return out;
    });
  }

  async moveQueued(move: QueueMove): Promise<QueueRecord> {
    const valid = parseQueueMove(move);
    return this.write('move a queued release', () => this.#move(valid, nowIso()));
  }

  /** What a dead daemon left half-way goes back one step, so the next cycle does it again from the start. */
  async recoverQueue(): Promise<QueueRecovery> {
    return this.write('recover the queue', () => {
      const at = nowIso();
      const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
      for (const row of (this.#sql.halfWay.all() as QueueRow[]).map(queueFromRow)) {
        const to = row.state === 'building' ? 'discovered' : 'built';
        // Kept: a daemon killed by a release (out of memory) must still run out of attempts.
        const moved = this.#move({ releaseId: row.releaseId, to }, at, true);
        (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
      }
      return out;
    });
  }

  async failQueued(failure: QueueFailure): Promise<QueueRecord> {
    const valid = parseQueueFailure(failure);
    return this.write('record a failed attempt', () => {
      const at = nowIso();
      const current = this.#get(valid.releaseId);
      const to = valid.retryAt === undefined ? 'failed' : valid.step === 'build' ? 'discovered' : 'built';
      // Back to the state it is in is allowed too: a session can fail before its row leaves built (the quiet-host
      // wait).
      if (current === undefined || (current.state !== to && !NEXT[current.state].includes(to)))
        throw new QueueStateError(valid.releaseId, current?.state, to);
      const lines = JSON.stringify(valid.errorLines);
      this.#sql.fail.run({
        id: valid.releaseId,
        from: current.state,
        to,
        step: valid.step,
        retryAt: valid.retryAt ?? null,
        error: valid.error,
        lines,
        at,
      });
      if (to === 'failed' && valid.message !== undefined) this.#queueMessage(valid.message, at);
      return this.#get(valid.releaseId)!;
    });
  }

  #get(releaseId: number): QueueRecord | undefined {
    const row = this.#sql.get.get(releaseId) as QueueRow | undefined;
    return row && queueFromRow(row);
  }

  #move(move: QueueMove, at: string, keepFailures = false): QueueRecord {
    const current = this.#get(move.releaseId);
    if (current === undefined || !NEXT[current.state].includes(move.to))
      throw new QueueStateError(move.releaseId, current?.state, move.to);
    this.#sql.move.run({
      id: move.releaseId,
      from: current.state,
      to: move.to,
      error: move.error ?? null,
      keep: keepFailures ? 1 : 0,
      at,
    });
    return this.#get(move.releaseId)!;
  }
}
