import type { SampleInput, SampleRecord, SampleStore } from '../sample-types.js';
import { DuplicateSampleError } from '../errors.js';
import { checkId, parseSampleInput } from '../validate.js';
import { perOpColumns } from '../roles/figure-row.js';
import { perOpParamNames } from './figure-columns.js';
import { nowIso, SqliteRole } from './connection.js';
import { sampleFromRow, type CounterRow, type SampleRow } from '../roles/rows.js';
import { sampleParams } from './sample-params.js';
import { SessionStates } from './session-states.js';

/** The samples of sessions, each with its host_metrics row and its db_counters rows. */
export class SqliteSamples extends SqliteRole implements Omit<SampleStore, 'sampleFigures'> {
  readonly #states = new SessionStates(this.connection);
  readonly #sql = this.statements({
    exists: `
      SELECT 1 FROM samples
      WHERE session_id = @session_id AND round = @round AND role = @role AND test = @test AND threads = @threads`,
    insert: `
      INSERT INTO samples (session_id, round, role, target_name, test, threads, seconds, qps, tps,
        latency_avg_ms, latency_p95_ms, latency_max_ms, errors, reconnects, created_at)
      VALUES (@session_id, @round, @role, @target_name, @test, @threads, @seconds, @qps, @tps,
        @latency_avg_ms, @latency_p95_ms, @latency_max_ms, @errors, @reconnects, @created_at)`,
    insertHostMetrics: `
      INSERT INTO host_metrics (sample_id, ${perOpColumns()}, host_usage)
      VALUES (@sample_id, ${perOpParamNames()}, @host_usage)`,
    insertCounter: 'INSERT INTO db_counters (sample_id, name, delta, per_op) VALUES (?, ?, ?, ?)',
    ofSession: `
      SELECT s.*, ${perOpColumns('h.')}, h.host_usage
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.id`,
    countersOfSession: `
      SELECT c.sample_id, c.name, c.delta, c.per_op
      FROM db_counters c JOIN samples s ON s.id = c.sample_id
      WHERE s.session_id = ? ORDER BY c.sample_id, c.name`,
  });

  async addSample(sessionId: number, input: SampleInput): Promise<number> {
    checkId('sample', 'sessionId', sessionId);
    const sample = parseSampleInput(input);
    return this.write('add a sample', () => {
      this.#states.requireRunning(sessionId, 'add a sample to');
      const key = { round: sample.round, role: sample.role, test: sample.test, threads: sample.threads };
      if (this.#sql.exists.get({ session_id: sessionId, ...key })) throw new DuplicateSampleError(sessionId, key);
      const params = sampleParams(sessionId, sample, nowIso());
      const sampleId = Number(this.#sql.insert.run(params.sample).lastInsertRowid);
      this.#sql.insertHostMetrics.run({ sample_id: sampleId, ...params.hostMetrics });
      for (const [name, value] of Object.entries(sample.dbCounters)) {
        this.#sql.insertCounter.run(sampleId, name, value.delta, value.perOp);
      }
      return sampleId;
    });
  }

  async samplesForSession(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read samples', () => {
      this.#states.of(sessionId);
      return this.#samples(sessionId);
    });
  }

  async completedSamples(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read samples', () => (this.#states.of(sessionId) === 'done' ? this.#samples(sessionId) : []));
  }

  #samples(sessionId: number): SampleRecord[] {
    const rows = this.#sql.ofSession.all(sessionId) as SampleRow[];
    const counters = new Map<number, CounterRow[]>();
    for (const counter of this.#sql.countersOfSession.all(sessionId) as CounterRow[]) {
      const list = counters.get(counter.sample_id) ?? [];
      list.push(counter);
      counters.set(counter.sample_id, list);
    }
    return rows.map((row) => sampleFromRow(row, counters.get(row.id) ?? []));
  }
}
