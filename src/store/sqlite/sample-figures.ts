import { FIGURE_FIELDS, PER_OP_FIGURES, type SampleRole } from '../../model/index.js';
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
    // Ordered by side and test, then as written: each side's test is one run of rows, found without a key per row.
    figures: `
      SELECT s.role, s.test, s.threads, ${FIELDS.map((f) => COLUMN_OF[f]).join(', ')}
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.role, s.test, s.threads, s.id`,
  });

  async sampleFigures(sessionId: number): Promise<SideTestFigures[]> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read sample figures', () => {
      this.#states.of(sessionId);
      const rows = this.#sql.figures.raw().all(sessionId) as unknown[][];
      const out: SideTestFigures[] = [];
      // One run of rows per side and test; each figure becomes one typed array, filled column by column: a cold
      // scrape reads 100,000 rows, and growing a list per figure and row was most of its time.
      for (let start = 0, end = 0; start < rows.length; start = end) {
        const [role, test, threads] = rows[start] as [SampleRole, string, number];
        while (end < rows.length && rows[end]![0] === role && rows[end]![1] === test && rows[end]![2] === threads) end++;
        const figures = {} as Record<SampleFigureField, Float64Array>;
        for (const [i, field] of FIELDS.entries()) {
          const values = new Float64Array(end - start);
          for (let r = start; r < end; r++) values[r - start] = Number(rows[r]![i + 3]);
          figures[field] = values;
        }
        out.push({ role, test, threads, figures });
      }
      return out;
    });
  }
}
