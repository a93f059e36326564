import { PER_OP_FIGURES, type PerOp, type PerOpColumn } from '../../model/index.js';

/**
 * The per-op figures' columns, from the one figure table: host_metrics and imported_results hold one column per
 * figure, so SQL and row mapping are written from the table, never by hand. A figure added to the table gets its
 * columns from addFigureColumns when a store is opened for writing: no migration is written for it.
 */
export type PerOpRow = Record<PerOpColumn, number | null>;

/** The tables that keep one column per figure of the table. */
export const FIGURE_TABLES = ['host_metrics', 'imported_results'] as const;

/** "cpu_per_op, cs_per_op, ..." with each name after `prefix` (e.g. "h."). */
export const perOpColumns = (prefix = ''): string => PER_OP_FIGURES.map((f) => `${prefix}${f.column}`).join(', ');

/** An absent figure (a time figure the row was made without) is stored as NULL. */
export function perOpParams(figures: PerOp): PerOpRow {
  const values = figures as Partial<Record<string, number>>;
  return Object.fromEntries(PER_OP_FIGURES.map((f) => [f.column, values[f.field] ?? null])) as PerOpRow;
}

/** A row's figures; a NULL (a row stored before its figure existed) leaves the figure out. */
export function perOpFromRow(row: object): PerOp {
  const values = row as Readonly<Record<string, unknown>>;
  const out: Record<string, number> = {};
  for (const f of PER_OP_FIGURES) {
    const value = values[f.column];
    if (value !== null && value !== undefined) out[f.field] = Number(value);
  }
  return out as PerOp;
}

/** "?, ?, ...": one placeholder per figure, filled by perOpValues in the same order. */
export const perOpPlaceholders = (): string => PER_OP_FIGURES.map(() => '?').join(', ');

/** The figures' values in the order of perOpColumns; an absent figure is NULL. */
export function perOpValues(figures: PerOp): Array<number | null> {
  const row = perOpParams(figures) as Record<string, number | null>;
  return PER_OP_FIGURES.map((f) => row[f.column] ?? null);
}
