import { FIGURE_FIELDS, PER_OP_FIGURES, type SampleRole } from '../../model/index.js';
import type { SampleFigureField, SideTestFigures } from '../sample-types.js';
import type { SqliteConnection } from './connection.js';

/** The figure fields: the figure table's and p95 latency, in the order of the rows query's columns and of a pack. */
export const FIGURE_PACK_FIELDS: readonly SampleFigureField[] = [...FIGURE_FIELDS, 'latencyP95Ms'];
const COLUMN_OF: Record<SampleFigureField, string> = {
  qps: 's.qps',
  latencyP95Ms: 's.latency_p95_ms',
  ...Object.fromEntries(PER_OP_FIGURES.map((f) => [f.field, `h.${f.column}`])),
} as Record<SampleFigureField, string>;

/** What a pack's layout column holds: its fields, and per side and test the number of samples. */
interface Layout {
  fields: string[];
  groups: Array<[SampleRole, string, number, number]>;
}

/**
 * A session's figures, by side and test, read from its samples or from its pack. The samples are the record; when a
 * session is done (it never changes after) its figures are also written packed in one row of session_figures: a
 * layout (JSON) and every figure as float64 in one blob. A cold /metrics scrape reads every done session, and one
 * row per session instead of a hundred thousand sample rows took it from 550 ms to a few tens.
 */
export class FigurePacks {
  readonly #rows;
  readonly #pack;
  readonly #insertPack;

  constructor(conn: SqliteConnection) {
    // Ordered by side and test, then as written: each side's test is one run of rows, found without a key per row.
    this.#rows = conn.prepare(`
      SELECT s.role, s.test, s.threads, ${FIGURE_PACK_FIELDS.map((f) => COLUMN_OF[f]).join(', ')}
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.role, s.test, s.threads, s.id`);
    this.#pack = conn.prepare('SELECT layout, figures FROM session_figures WHERE session_id = ?');
    this.#insertPack = conn.prepare('INSERT OR REPLACE INTO session_figures (session_id, layout, figures) VALUES (?, ?, ?)');
  }

  /** From the pack when there is one of the current fields (a figure added since leaves older packs aside). */
  read(sessionId: number): SideTestFigures[] {
    const pack = this.#pack.get(sessionId) as { layout: string; figures: Buffer } | undefined;
    return (pack && unpack(pack.layout, pack.figures)) ?? this.#fromRows(sessionId);
  }

  /** Inside the transaction that marks the session done. */
  writePack(sessionId: number): void {
    const groups = this.#fromRows(sessionId);
    const layout: Layout = { fields: [...FIGURE_PACK_FIELDS], groups: groups.map((g) => [g.role, g.test, g.threads, g.figures.qps.length]) };
    const values = new Float64Array(groups.reduce((n, g) => n + g.figures.qps.length * FIGURE_PACK_FIELDS.length, 0));
    let at = 0;
    for (const { figures } of groups) {
      for (const field of FIGURE_PACK_FIELDS) {
        values.set(figures[field], at);
        at += figures[field].length;
      }
    }
    this.#insertPack.run(sessionId, JSON.stringify(layout), Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  }

  #fromRows(sessionId: number): SideTestFigures[] {
    const rows = this.#rows.raw().all(sessionId) as unknown[][];
    const out: SideTestFigures[] = [];
    // One run of rows per side and test; each figure becomes one typed array, filled column by column.
    for (let start = 0, end = 0; start < rows.length; start = end) {
      const [role, test, threads] = rows[start] as [SampleRole, string, number];
      while (end < rows.length && rows[end]![0] === role && rows[end]![1] === test && rows[end]![2] === threads) end++;
      const figures = {} as Record<SampleFigureField, Float64Array>;
      for (const [i, field] of FIGURE_PACK_FIELDS.entries()) {
        const values = new Float64Array(end - start);
        for (let r = start; r < end; r++) values[r - start] = Number(rows[r]![i + 3]);
        figures[field] = values;
      }
      out.push({ role, test, threads, figures });
    }
    return out;
  }
}

/** The pack's figures as views on one array; undefined when its fields are not today's or its size does not add up. */
function unpack(layoutText: string, blob: Buffer): SideTestFigures[] | undefined {
  const layout = JSON.parse(layoutText) as Layout;
  if (layout.fields.length !== FIGURE_PACK_FIELDS.length || layout.fields.some((f, i) => f !== FIGURE_PACK_FIELDS[i])) return undefined;
  const total = layout.groups.reduce((n, [, , , count]) => n + count * FIGURE_PACK_FIELDS.length, 0);
  if (blob.byteLength !== total * 8) return undefined;
  // A Float64Array view needs an offset that is a multiple of 8; a blob's buffer may start anywhere.
  const values = blob.byteOffset % 8 === 0 ? new Float64Array(blob.buffer, blob.byteOffset, total) : new Float64Array(new Uint8Array(blob).buffer);
  let at = 0;
  return layout.groups.map(([role, test, threads, count]) => {
    const figures = {} as Record<SampleFigureField, Float64Array>;
    for (const field of FIGURE_PACK_FIELDS) {
      figures[field] = values.subarray(at, at + count);
      at += count;
    }
    return { role, test, threads, figures };
  });
}
