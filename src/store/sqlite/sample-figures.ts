import { FIGURE_FIELDS, PER_OP_FIGURES, testKey, type SampleRole } from '../../model/index.js';
import type { SampleFigureField, SampleStore, SideTestFigures } from '../sample-types.js';
import { checkId } from '../validate.js';
import { SqliteRole } from './connection.js';
import { SessionStates } from './session-states.js';

/** The figure fields in the order of the query's columns after role, test and threads. */
const FIELDS: readonly SampleFigureField[] = [...FIGURE_FIELDS, 'latencyP95Ms'];
const COLUMN_OF: Record<SampleFigureField, string> = {
  qps: 's.qps',
  latencyP95Ms: 's.latency_p95_ms',
  ...Object.fromEntries(PER_OP_FIGURES.map((f) => [f.field, `h.${f.column}`])),
} as Record<SampleFigureField, string>;

/**
 * The figures of one session's samples, and nothing else: /metrics reads every done session's samples once, and
 * materialising whole SampleRecords (host usage JSON, database counters) made the first scrape over 100,000 samples
 * take seconds. Rows come as arrays (raw), in the order written.
 */
export class SqliteSampleFigures extends SqliteRole implements Pick<SampleStore, 'sampleFigures'> {
  readonly #states = new SessionStates(this.connection);
  readonly #sql = this.statements({
    figures: `
      SELECT s.role, s.test, s.threads, ${FIELDS.map((f) => COLUMN_OF[f]).join(', ')}
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.id`,
  });

  async sampleFigures(sessionId: number): Promise<SideTestFigures[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read sample figures', () => {
      this.#states.of(sessionId);
      const out = new Map<string, SideTestFigures>();
      for (const row of this.#sql.figures.raw().iterate(sessionId) as Iterable<unknown[]>) {
        const [role, test, threads] = row as [SampleRole, string, number];
        const key = `${role}\u0000${testKey({ test, threads })}`;
        let entry = out.get(key);
        if (entry === undefined) {
          entry = { role, test, threads, figures: Object.fromEntries(FIELDS.map((f) => [f, []])) as unknown as Record<SampleFigureField, number[]> };
          out.set(key, entry);
        }
        for (const [i, field] of FIELDS.entries()) entry.figures[field].push(Number(row[i + 3]));
      }
      return [...out.values()];
    });
  }
}
