import type { MysqlConnection } from '../mysql/connection.js';
import { StoreCopyRefusedError } from './errors.js';
import { countRows, insertRows, rowsByFirstColumn } from './mysql-target.js';
import type { TablePlan } from './plan.js';
import type { SourceRow, SqliteSource } from './sqlite-source.js';
import { keyText, sameValue, toTarget, type TargetValue } from './values.js';

export interface TableCheck {
  plan: TablePlan;
  source: number;
  targetBefore: number;
  /** Source rows the target holds, equal in every copied column. */
  present: number;
  /** Source rows the target lacks. */
  missing: number;
}

/** The most a multi-row INSERT carries, well under the servers' max_allowed_packet (16 MiB in MariaDB). */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Reads the table's rows in the target that the source has too: each must equal the source's row, and a row the
 * target lacks must not take a unique key (a release's tag, a host's fingerprint) a target row has under another id.
 * Reads only; refuses with StoreCopyRefusedError naming the table and the row.
 */
export async function checkTable(
  conn: MysqlConnection,
  source: SqliteSource,
  plan: TablePlan,
  batchRows: number,
): Promise<TableCheck> {
  const check = { plan, source: source.count(plan.name), targetBefore: await countRows(conn, plan.name) };
  if (check.targetBefore === 0) return { ...check, present: 0, missing: check.source };
  let present = 0;
  let missing = 0;
  for (const page of source.pages(plan.source, names(plan), batchRows)) {
    const rows = page.map((row) => targetRow(plan, row));
    const found = await rowsOfTarget(
      conn,
      plan,
      plan.key,
      rows,
      plan.columns.map((c) => c.name),
    );
    const absent: TargetValue[][] = [];
    for (const row of rows) {
      const there = found.get(keyText(valuesOf(plan, row, plan.key)));
      if (there === undefined) {
        absent.push(row);
        continue;
      }
      const differs = plan.columns.findIndex((c, i) => !sameValue(row[i]!, there[c.name], c.kind));
      if (differs >= 0)
        throw new StoreCopyRefusedError(
          plan.name,
          `the target holds another row ${describeKey(plan, plan.key, row)} (column ${plan.columns[differs]!.name} ` +
            'differs): it has data of another store under the same ids; copy into an empty database',
        );
      present += 1;
    }
    await checkUniqueKeys(conn, plan, absent);
    missing += absent.length;
  }
  return { ...check, present, missing };
}

/** Inserts the source rows the target lacks, in batches; returns how many. */
export async function copyTable(
  conn: MysqlConnection,
  source: SqliteSource,
  check: TableCheck,
  batchRows: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const { plan } = check;
  let copied = 0;
  for (const page of source.pages(plan.source, names(plan), batchRows)) {
    signal?.throwIfAborted();
    let rows = page.map((row) => targetRow(plan, row));
    if (check.targetBefore > 0) {
      const found = await rowsOfTarget(conn, plan, plan.key, rows, plan.key);
      rows = rows.filter((row) => !found.has(keyText(valuesOf(plan, row, plan.key))));
    }
    for (const batch of byBytes(rows)) {
      await insertRows(conn, plan.name, names(plan), batch);
      copied += batch.length;
    }
  }
  return copied;
}

async function checkUniqueKeys(
  conn: MysqlConnection,
  plan: TablePlan,
  absent: readonly TargetValue[][],
): Promise<void> {
  if (absent.length === 0) return;
  for (const unique of plan.uniqueKeys) {
    // NULL takes no unique key.
    const rows = absent.filter((row) => valuesOf(plan, row, unique.columns).every((v) => v !== null));
    const found = await rowsOfTarget(conn, plan, unique.columns, rows, [...new Set([...unique.columns, ...plan.key])]);
    for (const row of rows) {
      const there = found.get(keyText(valuesOf(plan, row, unique.columns)));
      if (there === undefined) continue;
      const theirs = plan.key.map((k) => `${k} ${String(there[k])}`).join(', ');
      throw new StoreCopyRefusedError(
        plan.name,
        `the source's row ${describeKey(plan, plan.key, row)} has the same ${unique.name} ` +
          `(${unique.columns.join(', ')}) as the target's row ${theirs}: the target holds data of another store; ` +
          'copy into an empty database',
      );
    }
  }
}

/** The target's rows with the `key` values of `rows`, by their key text. */
async function rowsOfTarget(
  conn: MysqlConnection,
  plan: TablePlan,
  key: readonly string[],
  rows: readonly TargetValue[][],
  columns: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const first = [...new Map(rows.map((row) => valuesOf(plan, row, key.slice(0, 1))[0]!).map((v) => [String(v), v]))];
  const found = await rowsByFirstColumn(
    conn,
    plan.name,
    columns,
    key[0]!,
    first.map(([, v]) => v),
  );
  return new Map(found.map((r) => [keyText(key.map((k) => r[k])), r]));
}

/** A source row as the target is sent it: the plan's columns, each brought to its column's kind. */
function targetRow(plan: TablePlan, row: SourceRow): TargetValue[] {
  return plan.columns.map((c) => {
    const value = toTarget(row[c.name] ?? null, c.kind);
    if (value === undefined)
      throw new StoreCopyRefusedError(
        plan.name,
        `column ${c.name} holds ${JSON.stringify(String(row[c.name]))}, which the target's ${c.kind} column cannot ` +
          `take (row ${plan.key.map((k) => `${k} ${String(row[k])}`).join(', ')})`,
      );
    return value;
  });
}

function valuesOf(plan: TablePlan, row: readonly TargetValue[], columns: readonly string[]): TargetValue[] {
  return columns.map((name) => row[plan.columns.findIndex((c) => c.name === name)] ?? null);
}

function describeKey(plan: TablePlan, key: readonly string[], row: readonly TargetValue[]): string {
  const values = valuesOf(plan, row, key);
  return key.map((k, i) => `${k} ${String(values[i])}`).join(', ');
}

const names = (plan: TablePlan): string[] => plan.columns.map((c) => c.name);

/** Splits rows into batches of at most MAX_BATCH_BYTES (about: text and blobs by length, numbers 8 bytes). */
function byBytes(rows: readonly TargetValue[][]): TargetValue[][][] {
  const batches: TargetValue[][][] = [];
  let batch: TargetValue[][] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.reduce<number>((n, v) => n + (v === null ? 4 : typeof v === 'number' ? 8 : 2 * v.length + 4), 0);
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
