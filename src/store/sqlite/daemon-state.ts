import type { CacheSizes, WorkProgress } from '../../model/index.js';
import type { DaemonStateInput, DaemonStateRecord, DaemonStateStore } from '../daemon-state-types.js';
import { parseDaemonHost, parseDaemonState } from '../validate-queue.js';
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

/**
 * Each daemon's row of state (by host_name), made on its first write; before it, the pre-fleet row ('') is read, and
 * without that the state is idle with nothing known.
 */
export class SqliteDaemonState extends SqliteRole implements DaemonStateStore {
  readonly #sql = this.statements({
    get: `SELECT * FROM daemon_state WHERE host IN (@host, '') ORDER BY host = @host DESC LIMIT 1`,
    init: `INSERT INTO daemon_state (host, phase) VALUES (@host, 'idle') ON CONFLICT (host) DO NOTHING`,
    set: `UPDATE daemon_state SET last_poll_at = @last_poll_at, phase = @phase, phase_since = @phase_since, detail =
      @detail,
      pid = @pid, progress = @progress, cache_sizes = @cache_sizes, updated_at = @updated_at WHERE host = @host`,
  });

  async getDaemonState(host: string): Promise<DaemonStateRecord> {
    const valid = parseDaemonHost(host);
    return this.read('read the daemon state', () => this.#state(valid));
  }

  async setDaemonState(host: string, input: DaemonStateInput): Promise<DaemonStateRecord> {
    const name = parseDaemonHost(host);
    const valid = parseDaemonState(input);
    return this.write('write the daemon state', () => {
      const next = { ...this.#state(name), ...valid };
      this.#sql.init.run({ host: name });
      this.#sql.set.run({
        host: name,
        last_poll_at: next.lastPollAt,
        phase: next.phase,
        phase_since: next.phaseSince,
        detail: next.detail,
        pid: next.pid,
        progress: next.progress === null ? null : JSON.stringify(next.progress),
        cache_sizes: next.cacheSizes === null ? null : JSON.stringify(next.cacheSizes),
        updated_at: nowIso(),
      });
      return this.#state(name);
    });
  }

  #state(host: string): DaemonStateRecord {
    const row = this.#sql.get.get({ host }) as DaemonRow | undefined;
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
