import type { CacheSizes, WorkProgress } from '../../model/index.js';
import type { DaemonStateInput, DaemonStateRecord, DaemonStateStore } from '../daemon-state-types.js';
import { parseDaemonHost, parseDaemonState } from '../validate-queue.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';

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

const IDLE: DaemonStateRecord = {
  lastPollAt: null,
  phase: 'idle',
  phaseSince: null,
  detail: null,
  pid: null,
  progress: null,
  cacheSizes: null,
  updatedAt: null,
};

/**
 * Each daemon's row of state (by host_name), made on its first write; before it, the pre-fleet row ('') is read, and
 * without that the state is idle with nothing known.
 */
export class DaemonState extends SqlRole implements DaemonStateStore {
  async getDaemonState(host: string): Promise<DaemonStateRecord> {
    const valid = parseDaemonHost(host);
    return this.read('read the daemon state', (tx) => state(tx, valid));
  }

  /** Writers take turns (one writer at a time on either backend), so two writers' fields are not lost to each other. */
  async setDaemonState(host: string, input: DaemonStateInput): Promise<DaemonStateRecord> {
    const name = parseDaemonHost(host);
    const valid = parseDaemonState(input);
    return this.write('write the daemon state', async (tx) => {
      const before = await state(tx, name);
      await this.dialect.insertUnlessKey(tx, {
        table: 'daemon_state',
        row: { host: name, phase: 'idle' },
        key: ['host'],
      });
      const next = { ...before, ...valid };
      await tx.run(
        `UPDATE daemon_state SET last_poll_at = ?, phase = ?, phase_since = ?, detail = ?, pid = ?, progress = ?,
          cache_sizes = ?, updated_at = ? WHERE host = ?`,
        [
          next.lastPollAt,
          next.phase,
          next.phaseSince,
          next.detail,
          next.pid,
          next.progress === null ? null : JSON.stringify(next.progress),
          next.cacheSizes === null ? null : JSON.stringify(next.cacheSizes),
          nowIso(),
          name,
        ],
      );
      return state(tx, name);
    });
  }
}

/** The host's row, or the pre-fleet one (''); a write holds the store's write lock already. */
async function state(tx: SqlTx, host: string): Promise<DaemonStateRecord> {
  const row = await tx.row<DaemonRow>(
    `SELECT * FROM daemon_state WHERE host IN (?, '') ORDER BY host = ? DESC LIMIT 1`,
    [host, host],
  );
  if (row === undefined) return { ...IDLE };
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

/** Progress and sizes are shown, never acted on: a row a newer qpswatch wrote in another shape reads as unknown. */
function parsedJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
