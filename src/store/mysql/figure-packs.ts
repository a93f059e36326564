import { endianness } from 'node:os';
import { PER_OP_FIGURES, SAMPLE_FIGURE_FIELDS, type SampleFigureField, type SampleRole } from '../../model/index.js';
import type { SideTestFigures } from '../sample-types.js';
import type { MysqlConnection, MysqlTx } from './connection.js';

/**
 * A session's figures by side and test, from its samples or from its pack: the MySQL twin of sqlite/figure-packs.ts
 * (which says why packs exist), with the same layout and blob, so a pack copies between backends unchanged.
 */
const FIELDS = SAMPLE_FIGURE_FIELDS;
const COLUMN_OF: Record<SampleFigureField, string> = {
  qps: 's.qps',
  latencyP95Ms: 's.latency_p95_ms',
  ...Object.fromEntries(PER_OP_FIGURES.map((f) => [f.field, `h.${f.column}`])),
} as Record<SampleFigureField, string>;

interface Layout {
  byteOrder: 'BE' | 'LE';
  fields: string[];
  groups: Array<[SampleRole, string, number, number]>;
}

const BYTE_ORDER = endianness();
const FIELDS_TEXT = JSON.stringify(FIELDS);

// Ordered by side and test, then as written: each side's test is one run of rows, found without a key per row.
const ROWS_SQL = `
  SELECT s.role, s.test, s.threads, ${FIELDS.map((f, i) => `${COLUMN_OF[f]} AS f${i}`).join(', ')}
  FROM samples s JOIN host_metrics h ON h.sample_id = s.id
  WHERE s.session_id = ? ORDER BY s.role, s.test, s.threads, s.id`;

type FigureRow = { role: SampleRole; test: string; threads: number } & Record<string, number | null>;

/** From the pack when there is one of the current fields and byte order, else from the samples. */
export async function readFigures(tx: MysqlTx, sessionId: number): Promise<SideTestFigures[]> {
  const pack = await tx.row<{ layout: string; figures: Buffer }>(
    'SELECT layout, figures FROM session_figures WHERE session_id = ?',
    [sessionId],
  );
  return (pack && unpack(pack.layout, pack.figures)) ?? figuresFromRows(tx, sessionId);
}

/**
 * Inside the transaction that marks the session done, behind a savepoint: the pack is a copy for speed, and one
 * that cannot be written must not undo the session's end (it is packed at the next open instead).
 */
export async function writePack(tx: MysqlTx, sessionId: number): Promise<void> {
  await tx.run('SAVEPOINT pack');
  try {
    await insertPack(tx, sessionId);
    await tx.run('RELEASE SAVEPOINT pack');
  } catch {
    await tx.run('ROLLBACK TO SAVEPOINT pack');
  }
}

/**
 * On opening a store for writing: packs every done session without a usable pack, 50 a transaction. A failure leaves
 * them unpacked (read from their samples) until the next open.
 */
export async function packDoneSessions(conn: MysqlConnection): Promise<number> {
  try {
    const done = await conn.read('find unpacked sessions', (tx) =>
      tx.rows<{ id: number; layout: string | null }>(
        `SELECT s.id, f.layout FROM sessions s LEFT JOIN session_figures f ON f.session_id = s.id
         WHERE s.state = 'done' ORDER BY s.id`,
      ),
    );
    const ids = done.filter((r) => !usable(r.layout)).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 50) {
      await conn.write('pack done sessions', async (tx) => {
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

async function insertPack(tx: MysqlTx, sessionId: number): Promise<void> {
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
  await tx.run('REPLACE INTO session_figures (session_id, layout, figures) VALUES (?, ?, ?)', [
    sessionId,
    JSON.stringify(layout),
    Buffer.from(values.buffer, values.byteOffset, values.byteLength),
  ]);
}

async function figuresFromRows(tx: MysqlTx, sessionId: number): Promise<SideTestFigures[]> {
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
