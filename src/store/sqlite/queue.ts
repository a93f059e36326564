import type Database from 'better-sqlite3';
import { QueueStateError, ReleaseNotFoundError } from '../errors.js';
import type { QueueState } from '../../model/index.js';
import type { DaemonStateInput, DaemonStateRecord, QueueMove, QueueRecord, QueueRecovery, QuietHostInput, QuietHostRecord } from '../queue-types.js';

interface QueueRow {
  release_id: number;
  upstream: string;
  tag: string;
  version: string;
  version_key: string;
  state: QueueState;
  attempts: number;
  last_error: string | null;
  enqueued_at: string;
  updated_at: string;
}

interface DaemonRow {
  last_poll_at: string | null;
  phase: string;
  phase_since: string | null;
  detail: string | null;
  pid: number | null;
  updated_at: string | null;
}

interface QuietRow {
  session_id: number;
  observation: string;
  quiet: number;
  reasons: string;
  waited_seconds: number;
  checked_at: string;
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
  enqueuedAt: r.enqueued_at,
  updatedAt: r.updated_at,
});

const SELECT_QUEUE = `SELECT q.*, r.upstream, r.tag, r.version, r.version_key FROM release_queue q JOIN releases r ON r.id = q.release_id`;

/** The release queue, the daemon's one-row state and the quiet-host observations of sessions. */
export class SqliteQueue {
  readonly #sql;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      enqueue: p(`INSERT INTO release_queue (release_id, state, enqueued_at, updated_at) VALUES (@id, 'discovered', @at, @at)
        ON CONFLICT (release_id) DO NOTHING`),
      get: p(`${SELECT_QUEUE} WHERE q.release_id = ?`),
      release: p('SELECT 1 FROM releases WHERE id = ?'),
      // Version order across upstreams: the sortable key first, the upstream name to break ties.
      list: p(`${SELECT_QUEUE} ORDER BY r.version_key, r.upstream`),
      counts: p('SELECT state, COUNT(*) AS n FROM release_queue GROUP BY state'),
      move: p(`UPDATE release_queue SET state = @to, updated_at = @at,
        attempts = attempts + CASE WHEN @to IN ('building', 'benchmarking') THEN 1 ELSE 0 END,
        last_error = CASE WHEN @to = 'failed' THEN @error WHEN @to IN ('building', 'benchmarking') THEN last_error ELSE NULL END
        WHERE release_id = @id AND state = @from`),
      halfWay: p(`${SELECT_QUEUE} WHERE q.state IN ('building', 'benchmarking') ORDER BY r.version_key, r.upstream`),
      daemon: p('SELECT * FROM daemon_state WHERE id = 1'),
      daemonInit: p(`INSERT INTO daemon_state (id, phase) VALUES (1, 'idle') ON CONFLICT (id) DO NOTHING`),
      daemonSet: p(`UPDATE daemon_state SET last_poll_at = @last_poll_at, phase = @phase, phase_since = @phase_since, detail = @detail,
        pid = @pid, updated_at = @updated_at WHERE id = 1`),
      quietInsert: p(`INSERT INTO session_quiet_host (session_id, observation, quiet, reasons, waited_seconds, checked_at)
        VALUES (@session_id, @observation, @quiet, @reasons, @waited_seconds, @checked_at)
        ON CONFLICT (session_id) DO UPDATE SET observation = excluded.observation, quiet = excluded.quiet, reasons = excluded.reasons,
          waited_seconds = excluded.waited_seconds, checked_at = excluded.checked_at`),
      quietGet: p('SELECT * FROM session_quiet_host WHERE session_id = ?'),
    };
  }

  /** Returns the rows added: releases already queued keep their state, whatever it is. */
  enqueue(releaseIds: readonly number[], at: string): QueueRecord[] {
    const added: QueueRecord[] = [];
    for (const id of releaseIds) {
      if (this.#sql.release.get(id) === undefined) throw new ReleaseNotFoundError(`#${id}`);
      if (this.#sql.enqueue.run({ id, at }).changes > 0) added.push(this.get(id)!);
    }
    return added;
  }

  get(releaseId: number): QueueRecord | undefined {
    const row = this.#sql.get.get(releaseId) as QueueRow | undefined;
    return row && queueFromRow(row);
  }

  list(): QueueRecord[] {
    return (this.#sql.list.all() as QueueRow[]).map(queueFromRow);
  }

  counts(): Record<QueueState, number> {
    const out: Record<QueueState, number> = { discovered: 0, building: 0, built: 0, benchmarking: 0, done: 0, failed: 0 };
    for (const { state, n } of this.#sql.counts.all() as Array<{ state: QueueState; n: number }>) out[state] = n;
    return out;
  }

  move(move: QueueMove, at: string): QueueRecord {
    const current = this.get(move.releaseId);
    if (current === undefined || !NEXT[current.state].includes(move.to)) throw new QueueStateError(move.releaseId, current?.state, move.to);
    this.#sql.move.run({ id: move.releaseId, from: current.state, to: move.to, error: move.error ?? null, at });
    return this.get(move.releaseId)!;
  }

  /** What a dead daemon left half-way goes back one step, so the next cycle does it again from the start. */
  recover(at: string): QueueRecovery {
    const out: QueueRecovery = { rebuilt: [], rebenchmarked: [] };
    for (const row of (this.#sql.halfWay.all() as QueueRow[]).map(queueFromRow)) {
      const to = row.state === 'building' ? 'discovered' : 'built';
      const moved = this.move({ releaseId: row.releaseId, to }, at);
      (to === 'discovered' ? out.rebuilt : out.rebenchmarked).push(moved);
    }
    return out;
  }

  daemonState(): DaemonStateRecord {
    const row = this.#sql.daemon.get() as DaemonRow | undefined;
    if (row === undefined) return { lastPollAt: null, phase: 'idle', phaseSince: null, detail: null, pid: null, updatedAt: null };
    return { lastPollAt: row.last_poll_at, phase: row.phase, phaseSince: row.phase_since, detail: row.detail, pid: row.pid, updatedAt: row.updated_at };
  }

  setDaemonState(input: DaemonStateInput, at: string): DaemonStateRecord {
    this.#sql.daemonInit.run();
    const next = { ...this.daemonState(), ...input };
    this.#sql.daemonSet.run({ last_poll_at: next.lastPollAt, phase: next.phase, phase_since: next.phaseSince, detail: next.detail, pid: next.pid, updated_at: at });
    return this.daemonState();
  }

  recordQuietHost(input: QuietHostInput, at: string): void {
    this.#sql.quietInsert.run({
      session_id: input.sessionId,
      observation: JSON.stringify(input.observation),
      quiet: input.quiet ? 1 : 0,
      reasons: JSON.stringify(input.reasons),
      waited_seconds: input.waitedSeconds,
      checked_at: at,
    });
  }

  quietHost(sessionId: number): QuietHostRecord | undefined {
    const row = this.#sql.quietGet.get(sessionId) as QuietRow | undefined;
    if (row === undefined) return undefined;
    return {
      sessionId: row.session_id,
      observation: JSON.parse(row.observation) as Record<string, unknown>,
      quiet: row.quiet === 1,
      reasons: JSON.parse(row.reasons) as string[],
      waitedSeconds: row.waited_seconds,
      checkedAt: row.checked_at,
    };
  }
}
