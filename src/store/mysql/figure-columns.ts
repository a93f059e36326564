import { PER_OP_FIGURES } from '../../model/index.js';
import { FIGURE_TABLES } from '../roles/figure-row.js';
import type { MysqlTx } from './connection.js';

/**
 * The per-op figures' columns in MySQL: as in SQLite (sqlite/figure-columns.ts; the backend-neutral helpers are in
 * roles/figure-row.ts), a figure added to the model's table gets its column in host_metrics and imported_results when a
 * store is opened for writing, with no migration of its own.
 */

/** The figure columns each table lacks, from information_schema (of the connection's database). */
export async function missingFigureColumns(tx: MysqlTx): Promise<Array<{ table: string; column: string }>> {
  const rows = await tx.rows<{ table_name: string; column_name: string }>(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name FROM information_schema.COLUMNS
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${FIGURE_TABLES.map(() => '?').join(', ')})`,
    [...FIGURE_TABLES],
  );
  const missing: Array<{ table: string; column: string }> = [];
  for (const table of FIGURE_TABLES) {
    const have = new Set(rows.filter((r) => r.table_name === table).map((r) => r.column_name));
    // A store whose migrations have not made the table yet has no columns to add to.
    if (have.size === 0) continue;
    for (const f of PER_OP_FIGURES) if (!have.has(f.column)) missing.push({ table, column: f.column });
  }
  return missing;
}

/**
 * Adds the column of every figure a figure table lacks. The caller holds the migration lock, and the columns are
 * read again here under it, so two processes never add the same column; returns the columns added.
 */
export async function addFigureColumns(tx: MysqlTx): Promise<Array<{ table: string; column: string }>> {
  const missing = await missingFigureColumns(tx);
  for (const { table, column } of missing) await tx.run(`ALTER TABLE ${table} ADD COLUMN ${column} DOUBLE NULL`);
  return missing;
}
