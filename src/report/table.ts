import type { VerdictKind } from '../model/index.js';

/**
 * A table as rows of already formatted cells. Report builders (comparison, history) produce Tables; the text and
 * markdown layouts print them. Alignment lives here, once.
 */

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align: Align;
}

/** How a cell reads at a glance: a verdict's colour, or a ratio's (report/tones.ts); undefined: plain. */
export type CellTone = VerdictKind | 'neutral';

export interface Table {
  columns: readonly Column[];
  rows: readonly (readonly string[])[];
  /** Per row and column, the colour of the cell where it has one (terminal text, HTML, email). */
  tones?: readonly (readonly (CellTone | undefined)[])[];
}

/** Thrown on a row whose cell count differs from the columns: a bug in a report builder, not in the data. */
export class TableShapeError extends Error {
  constructor(
    readonly rowIndex: number,
    readonly cells: number,
    readonly columns: number,
  ) {
    super(`table row ${rowIndex} has ${cells} cells but the table has ${columns} columns`);
    this.name = new.target.name;
  }
}

export function makeTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  tones?: readonly (readonly (CellTone | undefined)[])[],
): Table {
  rows.forEach((row, index) => {
    if (row.length !== columns.length) throw new TableShapeError(index, row.length, columns.length);
  });
  return tones === undefined ? { columns, rows } : { columns, rows, tones };
}

export const left = (header: string): Column => ({ header, align: 'left' });
export const right = (header: string): Column => ({ header, align: 'right' });

/** Display width in code points, so µ counts as one column. */
export function cellWidth(text: string): number {
  return [...text].length;
}

export function padCell(text: string, width: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, width - cellWidth(text)));
  return align === 'left' ? text + fill : fill + text;
}

/** The widest cell of each column over all the given rows (header row included by the caller). */
export function columnWidths(rows: readonly (readonly string[])[], columnCount: number, minimum = 0): number[] {
  const widths = new Array<number>(columnCount).fill(minimum);
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? minimum, cellWidth(cell));
    });
  }
  return widths;
}

/** Every row (header first) with each cell padded to its column's width; cells are escaped by the caller first. */
export function alignedRows(table: Table, escape: (cell: string) => string, minimumWidth = 0): string[][] {
  const rows = [table.columns.map((column) => column.header), ...table.rows].map((row) => row.map(escape));
  const widths = columnWidths(rows, table.columns.length, minimumWidth);
  return rows.map((row) =>
    table.columns.map((column, index) => padCell(row[index] ?? '', widths[index] ?? 0, column.align)),
  );
}
