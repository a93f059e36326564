import type Database from 'better-sqlite3';
import { perOpColumns, perOpParamNames } from './figure-columns.js';

/** All SQL of the SQLite backend, prepared once per connection. */
export function prepareStatements(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    upsertHost: p(`
      INSERT INTO hosts (fingerprint_id, fingerprint, first_seen_at, last_seen_at)
      VALUES (@fingerprint_id, @fingerprint, @at, @at)
      ON CONFLICT (fingerprint_id) DO UPDATE SET fingerprint = excluded.fingerprint, last_seen_at = excluded.last_seen_at
      RETURNING id`),
    getHost: p('SELECT * FROM hosts WHERE id = ?'),
    insertSession: p(`
      INSERT INTO sessions (kind, host_id, state,
        baseline_name, baseline_flavor, baseline_version, baseline_binary, baseline_server_profile, baseline_description,
        candidate_name, candidate_flavor, candidate_version, candidate_binary, candidate_server_profile,
        candidate_description, suite, rounds, pid, settings, started_at)
      VALUES (@kind, @host_id, 'running',
        @baseline_name, @baseline_flavor, @baseline_version, @baseline_binary, @baseline_server_profile,
        @baseline_description, @candidate_name, @candidate_flavor, @candidate_version, @candidate_binary,
        @candidate_server_profile, @candidate_description, @suite, @rounds, @pid, @settings, @started_at)`),
    getSession: p('SELECT * FROM sessions WHERE id = ?'),
    sessionState: p('SELECT state FROM sessions WHERE id = ?'),
    listSessions: p('SELECT * FROM sessions WHERE (@state IS NULL OR state = @state) ORDER BY id DESC LIMIT @limit'),
    runningSessions: p("SELECT id, pid FROM sessions WHERE state = 'running' ORDER BY id"),
    endSession: p(`
      UPDATE sessions SET state = @state, error = @error, ended_at = @at
      WHERE id = @id AND state = 'running'`),
    sampleExists: p(`
      SELECT 1 FROM samples
      WHERE session_id = @session_id AND round = @round AND role = @role AND test = @test AND threads = @threads`),
    insertSample: p(`
      INSERT INTO samples (session_id, round, role, target_name, test, threads, seconds, qps, tps,
        latency_avg_ms, latency_p95_ms, latency_max_ms, errors, reconnects, created_at)
      VALUES (@session_id, @round, @role, @target_name, @test, @threads, @seconds, @qps, @tps,
        @latency_avg_ms, @latency_p95_ms, @latency_max_ms, @errors, @reconnects, @created_at)`),
    insertHostMetrics: p(`
      INSERT INTO host_metrics (sample_id, ${perOpColumns()}, cpu_micros_per_op, host_usage)
      VALUES (@sample_id, ${perOpParamNames()}, @cpu_micros_per_op, @host_usage)`),
    insertCounter: p('INSERT INTO db_counters (sample_id, name, delta, per_op) VALUES (?, ?, ?, ?)'),
    samplesOfSession: p(`
      SELECT s.*, ${perOpColumns('h.')}, h.cpu_micros_per_op, h.host_usage
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.id`),
    countersOfSession: p(`
      SELECT c.sample_id, c.name, c.delta, c.per_op
      FROM db_counters c JOIN samples s ON s.id = c.sample_id
      WHERE s.session_id = ? ORDER BY c.sample_id, c.name`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
