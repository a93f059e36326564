import { mapFigures, type Figures, type HistoryVersion, type HistoryView } from '../model/index.js';
import { ratioOrOne } from './ratio.js';

/** Each figure divided by the base's (ratioOrOne: 0/0 = 1, x/0 = Infinity); null when either was not measured. */
export function relativeFigures(figures: Figures | null | undefined, base: Figures | null | undefined): Figures | null {
  if (figures === null || figures === undefined || base === null || base === undefined) return null;
  return mapFigures((field) => ratioOrOne(figures[field], base[field]));
}

/** A test's figures relative to the base release, aligned with the versions. */
export function relativeRow(view: HistoryView, figures: ReadonlyArray<Figures | null>): (Figures | null)[] {
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
