import type { HistoryFigures, HistoryVersion, HistoryView } from './history-view.js';
import { ratioOrOne } from './ratio.js';

/** The figures in the order of the reference studies' per-op tables, with their table and csv names. */
export const HISTORY_FIELDS = [
  { field: 'cpuPerOp', header: 'cpu/o', csv: 'cpu_o' },
  { field: 'csPerOp', header: 'cs/o', csv: 'cs_o' },
  { field: 'readsPerOp', header: 'r/o', csv: 'r_o' },
  { field: 'readKBPerOp', header: 'rKB/o', csv: 'rkb_o' },
  { field: 'writeKBPerOp', header: 'wKB/o', csv: 'wkb_o' },
  { field: 'qps', header: 'o/s', csv: 'qps' },
] as const satisfies readonly { field: keyof HistoryFigures; header: string; csv: string }[];

/** Each figure divided by the base's (ratioOrOne: 0/0 = 1, x/0 = Infinity); null when either was not measured. */
export function relativeFigures(figures: HistoryFigures | null | undefined, base: HistoryFigures | null | undefined): HistoryFigures | null {
  if (figures === null || figures === undefined || base === null || base === undefined) return null;
  return {
    qps: ratioOrOne(figures.qps, base.qps),
    cpuPerOp: ratioOrOne(figures.cpuPerOp, base.cpuPerOp),
    csPerOp: ratioOrOne(figures.csPerOp, base.csPerOp),
    readsPerOp: ratioOrOne(figures.readsPerOp, base.readsPerOp),
    readKBPerOp: ratioOrOne(figures.readKBPerOp, base.readKBPerOp),
    writeKBPerOp: ratioOrOne(figures.writeKBPerOp, base.writeKBPerOp),
  };
}

/** A test's figures relative to the base release, aligned with the versions. */
export function relativeRow(view: HistoryView, figures: ReadonlyArray<HistoryFigures | null>): (HistoryFigures | null)[] {
  const base = figures[view.baseIndex];
  return figures.map((item) => relativeFigures(item, base));
}

export const IMPORTED_MARK = '*';
export const IMPORTED_FOOTNOTE = `${IMPORTED_MARK} imported`;

/** The version as printed in tables: "10.2.30*" when its figures were imported. */
export function versionCell(version: HistoryVersion): string {
  return version.imported ? `${version.version}${IMPORTED_MARK}` : version.version;
}

/** Columns are numbered from 1 as in the reference studies. */
export function columnName(index: number): string {
  return `col-${index + 1}`;
}
