import { endianness } from 'node:os';
import { PER_OP_FIGURES, SAMPLE_FIGURE_FIELDS, type SampleFigureField, type SampleRole } from '../../model/index.js';
import type { SideTestFigures } from '../sample-types.js';
import type { SqlDatabase, SqlTx } from '../sql.js';

/**
 * A session's figures, by side and test, read from its samples or from its pack. The samples are the record; when a
 * session is done (it never changes after) its figures are also written packed in one row of session_figures: a
 * layout (JSON) and every figure as float64 in one blob, the same on both backends, so a pack copies between them
 * unchanged. A cold /metrics scrape reads every done session: over 100,000 samples, one row per session instead of
 * the sample rows took that read from about 330 ms to 25 (SQLite).
 */
const FIELDS = SAMPLE_FIGURE_FIELDS;
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
const FIELDS_TEXT = JSON.stringify(FIELDS);

// Ordered by side and test, then as written: each side's test is one run of rows, found without a key per row.
const ROWS_SQL = `
  SELECT s.role, s.test, s.threads, ${FIELDS.map((f, i) => `${COLUMN_OF[f]} AS f${i}`).join(', ')}
  FROM samples s JOIN host_metrics h ON h.sample_id = s.id
  WHERE s.session_id = ? ORDER BY s.role, s.test, s.threads, s.id`;

type FigureRow = { role: SampleRole; test: string; threads: number } & Record<string, number | null>;

/** From the pack when there is one of the current fields and byte order, else from the samples. */
export async function readFigures(tx: SqlTx, sessionId: number): Promise<SideTestFigures[]> {
  const pack = await tx.row<{ layout: string; figures: Buffer }>(
    'SELECT layout, figures FROM session_figures WHERE session_id = ?',
    [sessionId],
  );
  return (pack && unpack(pack.layout, pack.figures)) ?? figuresFromRows(tx, sessionId);
}

/**
 * Inside the transaction that marks the session done, behind a savepoint (the same statements in SQLite and MySQL):
 * the pack is a copy for speed, and one that cannot be written (a bug, a row too large) must not undo the session's
 * end. The session is then read from its samples, and packed at the next open. A failure that took the whole
 * transaction with it (SQLite on a full disk, InnoDB on a deadlock) leaves no savepoint to return to: its own error
 * is thrown then, so the end fails as what it is (a full disk, or a deadlock run again) and is not half stored.
 */
export async function writePack(tx: SqlTx, sessionId: number): Promise<void> {
  await tx.run('SAVEPOINT pack');
  try {
    await insertPack(tx, sessionId);
    await tx.run('RELEASE SAVEPOINT pack');
  } catch (error) {
    try {
      await tx.run('ROLLBACK TO SAVEPOINT pack');
    } catch {
      throw error;
    }
  }
}

/**
 * On opening a store for writing: packs every done session without a usable pack, 50 a transaction. A failure leaves
 * them unpacked (read from their samples) until the next open.
 */
export async function packDoneSessions(db: SqlDatabase): Promise<number> {
  try {
    const done = await db.read('find unpacked sessions', (tx) =>
      tx.rows<{ id: number; layout: string | null }>(
        `SELECT s.id, f.layout FROM sessions s LEFT JOIN session_figures f ON f.session_id = s.id
         WHERE s.state = 'done' ORDER BY s.id`,
      ),
    );
    const ids = done.filter((r) => !usable(r.layout)).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 50) {
      // 50 sessions a transaction, so a large store's first open after an upgrade never holds the lock long.
      await db.write('pack done sessions', async (tx) => {
        for (const id of ids.slice(i, i + 50)) await insertPack(tx, id);
      });
    }
    return ids.length;
  } catch {
    return 0;
  }
}

function usable(layoutText: string | null): boolean {
  const layout = layoutText === null ? undefined : parseLayout(layoutText);
  return layout !== undefined && layout.byteOrder === BYTE_ORDER && JSON.stringify(layout.fields) === FIELDS_TEXT;
}

async function insertPack(tx: SqlTx, sessionId: number): Promise<void> {
  const groups = await figuresFromRows(tx, sessionId);
  const layout: Layout = {
    byteOrder: BYTE_ORDER,
    fields: [...FIELDS],
    groups: groups.map((g) => [g.role, g.test, g.threads, g.figures.qps.length]),
  };
  const values = new Float64Array(groups.reduce((n, g) => n + g.figures.qps.length * FIELDS.length, 0));
  let at = 0;
  for (const { figures } of groups) {
    for (const field of FIELDS) {
      values.set(figures[field], at);
      at += figures[field].length;
    }
  }
  // REPLACE INTO: one statement of the same meaning in SQLite and MySQL (delete the session's row, insert this one).
  await tx.run('REPLACE INTO session_figures (session_id, layout, figures) VALUES (?, ?, ?)', [
    sessionId,
    JSON.stringify(layout),
    Buffer.from(values.buffer, values.byteOffset, values.byteLength),
  ]);
}

async function figuresFromRows(tx: SqlTx, sessionId: number): Promise<SideTestFigures[]> {
  const rows = await tx.rows<FigureRow>(ROWS_SQL, [sessionId]);
  const out: SideTestFigures[] = [];
  for (let start = 0, end = 0; start < rows.length; start = end) {
    const { role, test, threads } = rows[start]!;
    while (end < rows.length && rows[end]!.role === role && rows[end]!.test === test && rows[end]!.threads === threads)
      end++;
    const figures = {} as Record<SampleFigureField, Float64Array>;
    for (const [i, field] of FIELDS.entries()) {
      const values = new Float64Array(end - start);
      // NULL: a figure added after the sample was stored; NaN, which every median leaves out.
      for (let r = start; r < end; r++) {
        const value = rows[r]![`f${i}`];
        values[r - start] = value === null || value === undefined ? NaN : Number(value);
      }
      figures[field] = values;
    }
    out.push({ role, test, threads: Number(threads), figures });
  }
  return out;
}

/** The pack's figures as views on one array; undefined (read the samples) when it is not today's or is damaged. */
function unpack(layoutText: string, blob: Buffer): SideTestFigures[] | undefined {
  const layout = parseLayout(layoutText);
  if (layout === undefined || layout.byteOrder !== BYTE_ORDER || JSON.stringify(layout.fields) !== FIELDS_TEXT)
    return undefined;
  const total = layout.groups.reduce((n, [, , , count]) => n + count * FIELDS.length, 0);
  if (!Buffer.isBuffer(blob) || blob.byteLength !== total * 8) return undefined;
  // A Float64Array view needs an offset that is a multiple of 8; a blob's buffer may start anywhere.
  const values =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, total)
      : new Float64Array(new Uint8Array(blob).buffer);
  let at = 0;
  return layout.groups.map(([role, test, threads, count]) => {
    const figures = {} as Record<SampleFigureField, Float64Array>;
    for (const field of FIELDS) {
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
  if ((byteOrder !== 'LE' && byteOrder !== 'BE') || !Array.isArray(fields) || !Array.isArray(groups)) return undefined;
  return groups.every(isGroup) ? { byteOrder, fields, groups } : undefined;
}
