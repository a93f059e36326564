import { figureOf, TABLE_FIGURES, type Figures } from '../model/index.js';

/** A column of the per-op tables: an entry of the figure table, or QPS. */
export type TableFigure = (typeof TABLE_FIGURES)[number];

/**
 * The figure columns a table, CSV or JSON shows for these figures: every rate figure and o/s, and a time figure
 * only where one of them has it. Results stored or imported before a figure existed lack it, so a history of
 * imported studies or an older session reads as it did, and a figure added to the table appears where it was
 * measured without changing what older results print.
 */
export function shownFigures(rows: Iterable<Partial<Figures> | null | undefined>): TableFigure[] {
  const list = [...rows].filter((r): r is Partial<Figures> => r !== null && r !== undefined);
  return TABLE_FIGURES.filter(
    (f) => !('kind' in f) || f.kind === 'rate' || list.some((r) => !Number.isNaN(figureOf(r, f.field))),
  );
}
