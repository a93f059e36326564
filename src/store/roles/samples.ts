import { DuplicateSampleError } from '../errors.js';
import type { SampleInput, SampleRecord, SampleStore } from '../sample-types.js';
import { sampleFromRow, type CounterRow, type SampleRow } from './rows.js';
import { checkId, parseSampleInput } from '../validate.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { perOpColumns, perOpPlaceholders, perOpValues } from './figure-row.js';
import { sessionState, requireRunning } from './session-states.js';

/** The samples of sessions, each with its host_metrics row and its db_counters rows. */
export class Samples extends SqlRole implements Omit<SampleStore, 'sampleFigures'> {
  async addSample(sessionId: number, input: SampleInput): Promise<number> {
    checkId('sample', 'sessionId', sessionId);
    const sample = parseSampleInput(input);
    return this.write('add a sample', async (tx) => {
      await requireRunning(tx, sessionId, 'add a sample to');
      const key = { round: sample.round, role: sample.role, test: sample.test, threads: sample.threads };
      const exists = await tx.row(
        'SELECT 1 AS yes FROM samples WHERE session_id = ? AND round = ? AND role = ? AND test = ? AND threads = ?',
        [sessionId, key.round, key.role, key.test, key.threads],
      );
      if (exists) throw new DuplicateSampleError(sessionId, key);
      const row = sampleColumns(sessionId, sample, nowIso());
      const names = Object.keys(row);
      const { insertId } = await tx.run(
        `INSERT INTO samples (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        Object.values(row),
      );
      await tx.run(
        `INSERT INTO host_metrics (sample_id, ${perOpColumns()}, host_usage) VALUES (?, ${perOpPlaceholders()}, ?)`,
        [insertId, ...perOpValues(sample), JSON.stringify(sample.host)],
      );
      for (const [name, value] of Object.entries(sample.dbCounters)) {
        await tx.run('INSERT INTO db_counters (sample_id, name, delta, per_op) VALUES (?, ?, ?, ?)', [
          insertId,
          name,
          value.delta,
          value.perOp,
        ]);
      }
      return insertId;
    });
  }

  async samplesForSession(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read samples', async (tx) => {
      await sessionState(tx, sessionId);
      return samplesOf(tx, sessionId);
    });
  }

  async completedSamples(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read samples', async (tx) =>
      (await sessionState(tx, sessionId)) === 'done' ? samplesOf(tx, sessionId) : [],
    );
  }
}

async function samplesOf(tx: SqlTx, sessionId: number): Promise<SampleRecord[]> {
  const rows = await tx.rows<SampleRow>(
    `SELECT s.*, ${perOpColumns('h.')}, h.host_usage
     FROM samples s JOIN host_metrics h ON h.sample_id = s.id
     WHERE s.session_id = ? ORDER BY s.id`,
    [sessionId],
  );
  const counters = new Map<number, CounterRow[]>();
  const counterRows = await tx.rows<CounterRow>(
    `SELECT c.sample_id, c.name, c.delta, c.per_op
     FROM db_counters c JOIN samples s ON s.id = c.sample_id
     WHERE s.session_id = ? ORDER BY c.sample_id, c.name`,
    [sessionId],
  );
  for (const counter of counterRows) {
    const list = counters.get(counter.sample_id) ?? [];
    list.push(counter);
    counters.set(counter.sample_id, list);
  }
  return rows.map((row) => sampleFromRow(row, counters.get(row.id) ?? []));
}

/** A checked sample's samples row: its columns and values (its figures go to host_metrics, its counters apart). */
function sampleColumns(sessionId: number, sample: SampleInput, createdAt: string): Record<string, unknown> {
  return {
    session_id: sessionId,
    round: sample.round,
    role: sample.role,
    target_name: sample.targetName,
    test: sample.test,
    threads: sample.threads,
    seconds: sample.seconds,
    qps: sample.qps,
    tps: sample.tps,
    latency_avg_ms: sample.latencyAvgMs,
    latency_p95_ms: sample.latencyP95Ms,
    latency_max_ms: sample.latencyMaxMs,
    errors: sample.errors,
    reconnects: sample.reconnects,
    created_at: createdAt,
  };
}
