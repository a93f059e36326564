import type { SampleRole } from '../../model/index.js';
import type { HostRecord } from '../host-types.js';
import type { JsonObject } from '../json-object.js';
import type { SampleRecord } from '../sample-types.js';
import type { SessionKind, SessionRecord, SessionState, TargetRef } from '../session-types.js';
import { perOpFromRow, type PerOpRow } from './figure-row.js';

/** The rows of hosts, sessions and samples as either backend returns them, and their records. */

export interface HostRow {
  id: number;
  fingerprint_id: string;
  fingerprint: string;
  first_seen_at: string;
  last_seen_at: string;
}

type TargetColumns<S extends SampleRole> = {
  [K in 'name' | 'flavor' | 'version' | 'binary' | 'server_profile' | 'description' as `${S}_${K}`]: string;
};

export interface SessionRow extends TargetColumns<'baseline'>, TargetColumns<'candidate'> {
  id: number;
  kind: SessionKind;
  host_id: number;
  state: SessionState;
  suite: string;
  rounds: number;
  pid: number;
  pid_start_ticks: number | null;
  settings: string;
  error: string | null;
  started_at: string;
  ended_at: string | null;
}

export interface SampleRow extends PerOpRow {
  id: number;
  session_id: number;
  round: number;
  role: SampleRole;
  target_name: string;
  test: string;
  threads: number;
  seconds: number;
  qps: number;
  tps: number;
  latency_avg_ms: number;
  latency_p95_ms: number;
  latency_max_ms: number;
  errors: number;
  reconnects: number;
  created_at: string;
  host_usage: string;
}

export interface CounterRow {
  sample_id: number;
  name: string;
  delta: number;
  per_op: number;
}

export function hostFromRow(row: HostRow): HostRecord {
  return {
    id: row.id,
    fingerprintId: row.fingerprint_id,
    fingerprint: parseJsonObject(row.fingerprint),
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
}

export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    kind: row.kind,
    hostId: row.host_id,
    state: row.state,
    baseline: targetFromRow(row, 'baseline'),
    candidate: targetFromRow(row, 'candidate'),
    suite: row.suite,
    rounds: row.rounds,
    pid: row.pid,
    pidStartTicks: row.pid_start_ticks,
    settings: parseJsonObject(row.settings),
    error: row.error,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export function targetColumns<S extends SampleRole>(side: S, target: TargetRef): TargetColumns<S> {
  return {
    [`${side}_name`]: target.name,
    [`${side}_flavor`]: target.flavor,
    [`${side}_version`]: target.version,
    [`${side}_binary`]: target.binary,
    [`${side}_server_profile`]: target.serverProfile,
    [`${side}_description`]: JSON.stringify(target.description),
  } as TargetColumns<S>;
}

function targetFromRow(row: SessionRow, side: SampleRole): TargetRef {
  return {
    name: row[`${side}_name`],
    flavor: row[`${side}_flavor`],
    version: row[`${side}_version`],
    binary: row[`${side}_binary`],
    serverProfile: row[`${side}_server_profile`],
    description: parseJsonObject(row[`${side}_description`]),
  };
}

export function sampleFromRow(row: SampleRow, counters: readonly CounterRow[]): SampleRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    round: row.round,
    role: row.role,
    targetName: row.target_name,
    test: row.test,
    threads: row.threads,
    seconds: row.seconds,
    qps: row.qps,
    tps: row.tps,
    latencyAvgMs: row.latency_avg_ms,
    latencyP95Ms: row.latency_p95_ms,
    latencyMaxMs: row.latency_max_ms,
    errors: row.errors,
    reconnects: row.reconnects,
    ...perOpFromRow(row),
    host: parseJsonObject(row.host_usage),
    dbCounters: Object.fromEntries(counters.map((c) => [c.name, { delta: c.delta, perOp: c.per_op }])),
    createdAt: row.created_at,
  };
}

/** Our own column, written by JSON.stringify of a checked plain object: trusted, not re-validated. */
function parseJsonObject(text: string): JsonObject {
  return JSON.parse(text) as JsonObject;
}
