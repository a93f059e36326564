import { endianness } from 'node:os';
import { PER_OP_FIGURES, SAMPLE_FIGURE_FIELDS, type SampleFigureField, type SampleRole } from '../../model/index.js';
import type { SideTestFigures } from '../sample-types.js';
import type Database from 'better-sqlite3';
import { SqliteConnection } from './connection.js';

/** The figure fields (the model's), in the order of the rows query's columns and of a pack. */
const FIGURE_PACK_FIELDS = SAMPLE_FIGURE_FIELDS;
const COLUMN_OF: Record<SampleFigureField, string> = {
  qps: 's.qps',
  latencyP95Ms: 's.latency_p95_ms',
  ...Object.fromEntries(PER_OP_FIGURES.map((f) => [f.field, `h.${f.column}`])),
} as Record<SampleFigureField, string>;

/** What a pack's layout column holds: the byte order of its floats, its fields, per side and test its sample count. */
interface Layout {
  byteOrder: 'BE' | 'LE';
  fields: string[];
  groups: Array<[SampleRole, string, number, number]>;
}

/** Float64Array uses the host's byte order; a pack written in the other one (a store copied over) is not used. */
const BYTE_ORDER = endianness();
const FIELDS_TEXT = JSON.stringify(FIGURE_PACK_FIELDS);

/**
 * A session's figures, by side and test, read from its samples or from its pack. The samples are the record; when a
 * session is done (it never changes after) its figures are also written packed in one row of session_figures: a
 * layout (JSON) and every figure as float64 in one blob. A cold /metrics scrape reads every done session: over
 * 100,000 samples, one row per session instead of the sample rows took that read from about 330 ms to 25.
 */
export class FigurePacks {
  readonly #conn: SqliteConnection;
  readonly #rows;
  readonly #pack;
  readonly #insertPack;
  readonly #unpacked;

  constructor(conn: SqliteConnection) {
    this.#conn = conn;
    // Ordered by side and test, then as written: each side's test is one run of rows, found without a key per row.
    this.#rows = conn.prepare(`
      SELECT s.role, s.test, s.threads, ${FIGURE_PACK_FIELDS.map((f) => COLUMN_OF[f]).join(', ')}
      FROM samples s JOIN host_metrics h ON h.sample_id = s.id
      WHERE s.session_id = ? ORDER BY s.role, s.test, s.threads, s.id`);
    this.#pack = conn.prepare('SELECT layout, figures FROM session_figures WHERE session_id = ?');
    this.#insertPack = conn.prepare(
      'INSERT OR REPLACE INTO session_figures (session_id, layout, figures) VALUES (?, ?, ?)',
    );
    // Done sessions without a usable pack: done before packs, or packed with other fields or another byte order.
    this.#unpacked = conn.prepare(`
      SELECT s.id FROM sessions s LEFT JOIN session_figures f ON f.session_id = s.id
      WHERE s.state = 'done' AND (f.session_id IS NULL OR NOT json_valid(f.layout)
        OR CASE WHEN json_valid(f.layout) THEN json_extract(f.layout, '$.fields') END IS NOT ?
        OR CASE WHEN json_valid(f.layout) THEN json_extract(f.layout, '$.byteOrder') END IS NOT ?)
      ORDER BY s.id`);
  }

  /** From the pack when there is one of the current fields (a figure added since leaves older packs aside). */
  read(sessionId: number): SideTestFigures[] {
    const pack = this.#pack.get(sessionId) as { layout: string; figures: Buffer } | undefined;
    return (pack && unpack(pack.layout, pack.figures)) ?? this.#fromRows(sessionId);
  }

  /**
   * Inside the transaction that marks the session done, in a savepoint of its own: the pack is a copy for speed, and
   * a pack that cannot be written (a full disk, a bug) must not undo the session's end. The session is then read
   * from its samples, and packed at the next open.
   */
  writePack(sessionId: number): void {
    try {
      this.#conn.live('pack a session').transaction(() => this.#insert(sessionId))();
    } catch {
      // Left without a pack: sampleFigures reads the samples, which hold the same figures.
    }
  }

  /** Packs every done session without a usable pack; on opening a store for writing. Returns how many. */
  packMissing(): number {
    const ids = this.#unpacked.pluck().all(FIELDS_TEXT, BYTE_ORDER) as number[];
    // Batches of 50 sessions a transaction, so a large store's first open after an upgrade never holds the lock long.
    for (let i = 0; i < ids.length; i += 50)
      this.#conn.writeBeforeUse('pack done sessions', () => ids.slice(i, i + 50).forEach((id) => this.#insert(id)));
    return ids.length;
  }

  #insert(sessionId: number): void {
    const groups = this.#fromRows(sessionId);
    const layout: Layout = {
      byteOrder: BYTE_ORDER,
      fields: [...FIGURE_PACK_FIELDS],
      groups: groups.map((g) => [g.role, g.test, g.threads, g.figures.qps.length]),
    };
    const values = new Float64Array(groups.reduce((n, g) => n + g.figures.qps.length * FIGURE_PACK_FIELDS.length, 0));
    let at = 0;
    for (const { figures } of groups) {
      for (const field of FIGURE_PACK_FIELDS) {
        values.set(figures[field], at);
        at += figures[field].length;
      }
    }
    this.#insertPack.run(
      sessionId,
      JSON.stringify(layout),
      Buffer.from(values.buffer, values.byteOffset, values.byteLength),
    );
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
        // NULL: a figure added after the sample was stored; NaN, which every median leaves out.
        for (let r = start; r < end; r++) values[r - start] = rows[r]![i + 3] === null ? NaN : Number(rows[r]![i + 3]);
        figures[field] = values;
      }
      out.push({ role, test, threads, figures });
    }
    return out;
  }
}

/**
 * The pack's figures as views on one array; undefined (read the samples) when it is not today's (fields, byte order)
 * or does not hold together: a damaged pack costs speed, never a scrape.
 */
function unpack(layoutText: string, blob: Buffer): SideTestFigures[] | undefined {
  const layout = parseLayout(layoutText);
  if (layout === undefined || layout.byteOrder !== BYTE_ORDER || JSON.stringify(layout.fields) !== FIELDS_TEXT)
    return undefined;
  const total = layout.groups.reduce((n, [, , , count]) => n + count * FIGURE_PACK_FIELDS.length, 0);
  if (!Buffer.isBuffer(blob) || blob.byteLength !== total * 8) return undefined;
  // A Float64Array view needs an offset that is a multiple of 8; a blob's buffer may start anywhere.
  const values =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, total)
      : new Float64Array(new Uint8Array(blob).buffer);
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

function parseLayout(text: string): Layout | undefined {
  let layout: unknown;
  try {
    layout = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof layout !== 'object' || layout === null) return undefined;
  const { byteOrder, fields, groups } = layout as Partial<Layout>;
  const isGroup = (g: unknown): boolean =>
    Array.isArray(g) &&
    g.length === 4 &&
    (g[0] === 'baseline' || g[0] === 'candidate') &&
    typeof g[1] === 'string' &&
    Number.isInteger(g[2]) &&
    Number.isInteger(g[3]) &&
    (g[3] as number) >= 0;
  if (
    (byteOrder !== 'LE' && byteOrder !== 'BE') ||
    !Array.isArray(fields) ||
    !Array.isArray(groups) ||
    !groups.every(isGroup)
  )
    return undefined;
  return { byteOrder, fields, groups };
}

/**
 * On opening a store for writing: packs the done sessions that have no usable pack (done before packs existed, or
 * packed with other figure fields). A failure leaves them unpacked, read from their samples: packs are for speed.
 */
export function packDoneSessions(db: Database.Database): void {
  try {
    new FigurePacks(new SqliteConnection(db)).packMissing();
  } catch {
    // Read from the samples until the next open packs them.
  }
}
