import type Database from 'better-sqlite3';
import { PER_OP_FIGURES } from '../../model/index.js';
import { FIGURE_TABLES } from '../roles/figure-row.js';

/** The figure columns each table lacks: a store written before the figure was added to the table. */
export function missingFigureColumns(db: Database.Database): Array<{ table: string; column: string }> {
  const missing: Array<{ table: string; column: string }> = [];
  for (const table of FIGURE_TABLES) {
    const columns = db.pragma(`table_info(${table})`) as Array<{ name: string }>;
    // A store whose migrations have not made the table yet has no columns to add to.
    if (columns.length === 0) continue;
    const have = new Set(columns.map((c) => c.name));
    for (const f of PER_OP_FIGURES) if (!have.has(f.column)) missing.push({ table, column: f.column });
  }
  return missing;
}

/**
 * Adds the column of every figure of the table that a figure table lacks, in one write transaction, after the
 * migrations: idempotent, so every open for writing runs it. Older rows read NULL there (the figure is absent).
 * Returns the columns added.
 */
export function addFigureColumns(db: Database.Database): Array<{ table: string; column: string }> {
  return db
    .transaction(() => {
      // Read again inside the lock: another process may have added them meanwhile.
      const missing = missingFigureColumns(db);
      for (const { table, column } of missing) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} REAL`);
      return missing;
    })
    .immediate();
}
