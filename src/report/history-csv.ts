import { csvRecord } from './csv.js';
import { columnName, relativeRow } from './history-figures.js';
import { TABLE_FIGURES } from '../model/index.js';
import type { Figures, HistoryView } from '../model/index.js';
import { INFINITE_CELL } from './number-format.js';

export const HISTORY_CSV_HEADER = [
  'series', 'flavor', 'base_version', 'col', 'version', 'label', 'imported', 'test', 'threads',
  ...TABLE_FIGURES.map(({ csv }) => csv),
  ...TABLE_FIGURES.map(({ csv }) => `${csv}_rel`),
  'detectable_drop',
] as const;

// Full precision (csv is for machines); empty fields when a version was not measured; x/0 as "inf", which
// spreadsheets and pandas read as infinity, so it is not confused with a missing figure.
function cells(figures: Figures | null | undefined): (string | number)[] {
  return TABLE_FIGURES.map(({ field }) => {
    if (figures === null || figures === undefined) return '';
    const value = figures[field];
    return value === Number.POSITIVE_INFINITY ? INFINITE_CELL : value;
  });
}

/**
 * Long format: one record per (version, test, threads), absolute figures then the same relative to the base, then
 * the smallest drop the release's newest valid check could detect.
 */
export function historyCsv(view: HistoryView): string {
  const base = view.versions[view.baseIndex]?.version ?? '';
  const relative = view.tests.map((row) => relativeRow(view, row.figures));
  const records = view.versions.flatMap((version, index) =>
    view.tests.map((row, testIndex) =>
      csvRecord([
        view.series, view.flavor, base, columnName(index), version.version, version.label, String(version.imported), row.test, row.threads,
        ...cells(row.figures[index]),
        ...cells(relative[testIndex]?.[index]),
        // The newest valid check of the release: empty where it was not checked here.
        row.detectableDrop?.[index] ?? '',
      ]),
    ),
  );
  return csvRecord(HISTORY_CSV_HEADER) + records.join('');
}
