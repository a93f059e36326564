import type { CacheSizes, WorkProgress } from '../../model/index.js';
import type { DaemonStateInput, DaemonStateRecord, DaemonStateStore } from '../daemon-state-types.js';
import { parseDaemonState } from '../validate-queue.js';
import { nowIso, SqliteRole } from './connection.js';

interface DaemonRow {
  last_poll_at: string | null;
  phase: string;
  phase_since: string | null;
  detail: string | null;
  pid: number | null;
  progress: string | null;
  cache_sizes: string | null;
  updated_at: string | null;
}

/** The daemon's one row of state (id 1), made on the first write; before it, the state is idle with nothing known. */
export class SqliteDaemonState extends SqliteRole implements DaemonStateStore {
  readonly #sql = this.statements({
    get: 'SELECT * FROM daemon_state WHERE id = 1',
    init: `INSERT INTO daemon_state (id, phase) VALUES (1, 'idle') ON CONFLICT (id) DO NOTHING`,
    set: `UPDATE daemon_state SET last_poll_at = @last_poll_at, phase = @phase, phase_since = @phase_since, detail =
      @detail,
      pid = @pid, progress = @progress, cache_sizes = @cache_sizes, updated_at = @updated_at WHERE id = 1`,
  });

  async getDaemonState(): Promise<DaemonStateRecord> {
    return this.read('read the daemon state', () => this.#state());
  }

  async setDaemonState(input: DaemonStateInput): Promise<DaemonStateRecord> {
    const valid = parseDaemonState(input);
    return this.write('write the daemon state', () => {
      this.#sql.init.run();
      const next = { ...this.#state(), ...valid };
      this.#sql.set.run({
        last_poll_at: next.lastPollAt,
        phase: next.phase,
        phase_since: next.phaseSince,
        detail: next.detail,
        pid: next.pid,
        progress: next.progress === null ? null : JSON.stringify(next.progress),
        cache_sizes: next.cacheSizes === null ? null : JSON.stringify(next.cacheSizes),
        updated_at: nowIso(),
      });
      return this.#state();
    });
  }

  #state(): DaemonStateRecord {
    const row = this.#sql.get.get() as DaemonRow | undefined;
    if (row === undefined)
      return {
        lastPollAt: null,
        phase: 'idle',
        phaseSince: null,
        detail: null,
        pid: null,
        progress: null,
        cacheSizes: null,
        updatedAt: null,
      };
    return {
      lastPollAt: row.last_poll_at,
      phase: row.phase,
      phaseSince: row.phase_since,
      detail: row.detail,
      pid: row.pid,
      progress: parsedJson<WorkProgress>(row.progress),
      cacheSizes: parsedJson<CacheSizes>(row.cache_sizes),
      updatedAt: row.updated_at,
    };
  }
}

/** Progress and sizes are shown, never acted on: a row a newer qpswatch wrote in another shape reads as unknown. */
function parsedJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
