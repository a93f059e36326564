import { mapPerOp, PER_OP_FIGURES, type PerOp, type PerOpColumn } from '../../model/index.js';

/**
 * The per-op figures' columns, from the one figure table: host_metrics and imported_results hold one column per
 * figure, so SQL and row mapping are written from the table, never by hand. A new figure needs its columns added by
 * a migration.
 */
export type PerOpRow = Record<PerOpColumn, number>;

/** "cpu_per_op, cs_per_op, ..." with each name after `prefix` (e.g. "h."). */
export const perOpColumns = (prefix = ''): string => PER_OP_FIGURES.map((f) => `${prefix}${f.column}`).join(', ');

/** "@cpu_per_op, @cs_per_op, ...": the named parameters perOpParams fills. */
export const perOpParamNames = (): string => PER_OP_FIGURES.map((f) => `@${f.column}`).join(', ');

export function perOpParams(figures: PerOp): PerOpRow {
  return Object.fromEntries(PER_OP_FIGURES.map((f) => [f.column, figures[f.field]])) as PerOpRow;
}

export function perOpFromRow(row: object): PerOp {
  const values = row as Readonly<Record<string, unknown>>;
  const columnOf = new Map(PER_OP_FIGURES.map((f) => [f.field, f.column]));
  return mapPerOp((field) => Number(values[columnOf.get(field)!]));
}
