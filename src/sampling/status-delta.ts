import { CounterWrapError, InvalidRateError, StatusParseError } from './errors.js';
import type { GlobalStatus } from './global-status.js';

/** The counters that say where work and extra writes come from; read per query. */
export const STATUS_COUNTERS = [
  'Innodb_rows_read',
  'Innodb_rows_updated',
  'Innodb_rows_inserted',
  'Innodb_rows_deleted',
  'Innodb_data_written',
  'Innodb_data_writes',
  'Innodb_os_log_written',
  'Innodb_buffer_pool_pages_flushed',
  'Innodb_data_reads',
  'Innodb_pages_written',
  // The buffer pool hit ratio of a run: 1 - reads from disk / logical reads (the cached and io-bound settings).
  'Innodb_buffer_pool_read_requests',
  'Innodb_buffer_pool_reads',
  // MariaDB 10.5+ has no Innodb_rows_*: its row work shows in Rows_read and the Handler_* counters.
  'Rows_read',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd_next',
  'Handler_update',
  'Handler_write',
  'Handler_delete',
  'Com_select',
  'Com_insert',
  'Com_update',
  'Com_delete',
  'Com_commit',
] as const;
export type StatusCounterName = (typeof STATUS_COUNTERS)[number];

export interface StatusCounterDelta {
  name: StatusCounterName;
  delta: number;
  perOp: number;
}

export interface StatusDelta {
  queries: number;
  counters: StatusCounterDelta[];
  /** Counters this server version does not have (MariaDB 10.11 has no Innodb_rows_*): skipped, not errors. */
  missing: StatusCounterName[];
}

/**
 * What reading the counters itself adds to them (SHOW GLOBAL STATUS scans its own rows: Handler_read_rnd_next,
 * Rows_read): the change between two readings taken back to back with nothing else running.
 */
export type ObserverCost = Readonly<Record<string, number>>;

export function observerCost(first: GlobalStatus, second: GlobalStatus): ObserverCost {
  const cost: Record<string, number> = {};
  for (const name of STATUS_COUNTERS) {
    const a = first[name];
    const b = second[name];
    if (a !== undefined && b !== undefined) cost[name] = counterDelta(name, toCounter(name, a), toCounter(name, b));
  }
  return cost;
}

/**
 * Per-query change of each tracked counter between two SHOW GLOBAL STATUS readings, less what the readings
 * themselves added (observer), so a test that got slower does not seem to read more rows because of qpswatch.
 */
export function statusDelta(
  before: GlobalStatus,
  after: GlobalStatus,
  queries: number,
  observer: ObserverCost = {},
): StatusDelta {
  if (!Number.isFinite(queries) || queries <= 0) throw new InvalidRateError('queries', queries);
  const counters: StatusCounterDelta[] = [];
  const missing: StatusCounterName[] = [];
  for (const name of STATUS_COUNTERS) {
    const a = before[name];
    const b = after[name];
    if (a === undefined || b === undefined) {
      missing.push(name);
      continue;
    }
    const delta = Math.max(0, counterDelta(name, toCounter(name, a), toCounter(name, b)) - (observer[name] ?? 0));
    counters.push({ name, delta, perOp: delta / queries });
  }
  return { queries, counters, missing };
}

function toCounter(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new StatusParseError(name, text, 'not a non-negative integer counter');
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new StatusParseError(name, text, 'too large to count exactly');
  return value;
}

function counterDelta(name: string, before: number, after: number): number {
  if (after < before) throw new CounterWrapError(name, before, after);
  return after - before;
}
