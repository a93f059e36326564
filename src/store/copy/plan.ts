import { StoreCopyRefusedError } from './errors.js';
import type { SourceTable } from './sqlite-source.js';
import type { TargetColumn, TargetSchema, TargetTable } from './mysql-target.js';
import { copyOrder } from './table-order.js';

/**
 * Tables each store keeps for itself, made by its own migrations: the schema version, the one row writers lock
 * (MySQL), and the results mark (a counter each backend moves on its own writes).
 */
export const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set(['schema_version', 'store_write_lock', 'results_mark']);

export interface TablePlan {
  name: string;
  source: SourceTable;
  /** The columns both stores have that the target lets be inserted, in the target's order. */
  columns: TargetColumn[];
  /** The target's primary key: how a source row is found in the target. */
  key: string[];
  uniqueKeys: TargetTable['uniqueKeys'];
}

export interface SourceFacts {
  tables: readonly SourceTable[];
  count(table: string): number;
  countNonNull(table: string, column: string): number;
}

/**
 * What to copy: every table of the source the target has, in the target's foreign-key order, with the columns the
 * two have in common. Refuses (StoreCopyRefusedError) a table or a column with data the target has no place for,
 * and a column the target needs a value for that the source lacks: the copy must not lose or invent anything. A
 * table or column added to both stores later needs nothing here.
 */
export function planCopy(source: SourceFacts, target: TargetSchema): TablePlan[] {
  const targetTables = new Map(target.tables.map((t) => [t.name, t]));
  const plans = new Map<string, TablePlan>();
  for (const table of source.tables) {
    if (BOOKKEEPING_TABLES.has(table.name)) continue;
    const into = targetTables.get(table.name);
    if (into === undefined) {
      const rows = source.count(table.name);
      if (rows > 0) throw refuse(table.name, `the target has no table ${table.name} for its ${rows} rows`);
      continue;
    }
    plans.set(table.name, tablePlan(source, table, into));
  }
  const { order, cycle } = copyOrder(
    [...plans.keys()],
    target.foreignKeys.filter((k) => plans.has(k.table)),
  );
  if (cycle.length > 0)
    throw refuse(
      undefined,
      `the target's foreign keys go round in a circle (${cycle.join(', ')}): no order inserts them`,
    );
  return order.map((name) => plans.get(name)!);
}

function tablePlan(source: SourceFacts, table: SourceTable, into: TargetTable): TablePlan {
  const have = new Set(table.columns);
  const insertable = new Map(into.columns.filter((c) => !c.generated).map((c) => [c.name, c]));
  for (const column of table.columns) {
    if (insertable.has(column)) continue;
    const rows = source.countNonNull(table.name, column);
    if (rows > 0)
      throw refuse(
        table.name,
        `the target has no column ${table.name}.${column} for the values of its ${rows} rows; upgrade the target's ` +
          'qpswatch (or the source has a column no qpswatch made)',
      );
  }
  const needed = into.columns.find((c) => !have.has(c.name) && !c.fillable);
  if (needed !== undefined)
    throw refuse(
      table.name,
      `the target's column ${table.name}.${needed.name} needs a value and the source has no such column`,
    );
  const key = into.primaryKey;
  if (key.length === 0 || key.some((k) => !have.has(k) || !insertable.has(k)))
    throw refuse(table.name, `the target's table ${table.name} has no primary key of columns the source has`);
  return {
    name: table.name,
    source: table,
    columns: into.columns.filter((c) => have.has(c.name) && !c.generated),
    key,
    uniqueKeys: into.uniqueKeys.filter((u) => u.columns.every((c) => have.has(c) && insertable.has(c))),
  };
}

const refuse = (table: string | undefined, reason: string): StoreCopyRefusedError =>
  new StoreCopyRefusedError(table, reason);
