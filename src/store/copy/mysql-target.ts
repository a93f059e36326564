import type { MysqlConnection, MysqlTx } from '../mysql/connection.js';
import type { ForeignKey } from './table-order.js';
import { columnKind, type ColumnKind, type TargetValue } from './values.js';

export interface TargetColumn {
  name: string;
  kind: ColumnKind;
  /** The target fills it when an insert leaves it out: nullable, a default, auto-increment, or generated. */
  fillable: boolean;
  /** Generated from other columns (regression_events.one_open): never inserted. */
  generated: boolean;
}

export interface TargetTable {
  name: string;
  /** In the table's column order. */
  columns: TargetColumn[];
  primaryKey: string[];
  /** The unique keys besides the primary key, each its columns in order. */
  uniqueKeys: Array<{ name: string; columns: string[] }>;
}

export interface TargetSchema {
  /** In the order information_schema lists them (by name); copyOrder puts them in foreign-key order. */
  tables: TargetTable[];
  foreignKeys: ForeignKey[];
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: string;
  column_default: string | null;
  extra: string;
}

interface IndexRow {
  table_name: string;
  index_name: string;
  column_name: string;
}

/** The tables, columns, keys and foreign keys of the connection's database, from information_schema. */
export async function readTargetSchema(tx: MysqlTx): Promise<TargetSchema> {
  const columns = await tx.rows<ColumnRow>(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, DATA_TYPE AS data_type,
            IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS column_default, EXTRA AS extra
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const indexes = await tx.rows<IndexRow>(
    `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, COLUMN_NAME AS column_name
     FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0
     ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  const foreignKeys = await tx.rows<ForeignKey>(
    `SELECT DISTINCT TABLE_NAME AS \`table\`, REFERENCED_TABLE_NAME AS \`references\`
     FROM information_schema.KEY_COLUMN_USAGE
     WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL AND REFERENCED_TABLE_SCHEMA = DATABASE()`,
  );
  const names = [...new Set(columns.map((c) => c.table_name))];
  return { tables: names.map((name) => targetTable(name, columns, indexes)), foreignKeys };
}

function targetTable(name: string, columns: readonly ColumnRow[], indexes: readonly IndexRow[]): TargetTable {
  const keys = new Map<string, string[]>();
  for (const i of indexes.filter((i) => i.table_name === name))
    keys.set(i.index_name, [...(keys.get(i.index_name) ?? []), i.column_name]);
  return {
    name,
    columns: columns
      .filter((c) => c.table_name === name)
      .map((c) => {
        const extra = c.extra.toLowerCase();
        const generated = extra.includes('generated') || extra.includes('virtual') || extra.includes('persistent');
        return {
          name: c.column_name,
          kind: columnKind(c.data_type),
          generated,
          fillable:
            generated || c.is_nullable === 'YES' || c.column_default !== null || extra.includes('auto_increment'),
        };
      }),
    primaryKey: keys.get('PRIMARY') ?? [],
    uniqueKeys: [...keys].filter(([k]) => k !== 'PRIMARY').map(([k, cols]) => ({ name: k, columns: cols })),
  };
}

export async function countRows(conn: MysqlConnection, table: string): Promise<number> {
  const row = await conn.read('count rows', (tx) => tx.row<{ n: number }>(`SELECT COUNT(*) AS n FROM ${q(table)}`));
  return Number(row?.n ?? 0);
}

/**
 * The target's rows whose `columns[0]` is one of `firstValues`, with the columns named. A page's rows are found by
 * the first column of their key alone (an index's prefix, which every key has); the caller matches the whole key.
 */
export async function rowsByFirstColumn(
  conn: MysqlConnection,
  table: string,
  columns: readonly string[],
  firstColumn: string,
  firstValues: readonly TargetValue[],
): Promise<Array<Record<string, unknown>>> {
  if (firstValues.length === 0) return [];
  const sql =
    `SELECT ${columns.map(q).join(', ')} FROM ${q(table)} ` +
    `WHERE ${q(firstColumn)} IN (${firstValues.map(() => '?').join(', ')})`;
  return conn.read('read rows of the target', (tx) => tx.rows<Record<string, unknown>>(sql, [...firstValues]));
}

/** One multi-row INSERT of `rows` (values in the order of `columns`), in one write transaction of the store. */
export async function insertRows(
  conn: MysqlConnection,
  table: string,
  columns: readonly string[],
  rows: readonly TargetValue[][],
): Promise<void> {
  if (rows.length === 0) return;
  const one = `(${columns.map(() => '?').join(', ')})`;
  const sql = `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${rows.map(() => one).join(', ')}`;
  await conn.write('copy rows into the target', (tx) => tx.run(sql, rows.flat()));
}

/** A MySQL identifier in backquotes. */
export function q(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
