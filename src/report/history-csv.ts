import { csvRecord } from './csv.js';
import { relativeQpsRow, relativeRow, type HistoryRelativeQps } from './history-figures.js';
import { TABLE_FIGURES } from '../model/index.js';
import type { Figures, HistoryView } from '../model/index.js';
import { INFINITE_CELL } from './number-format.js';

export const HISTORY_CSV_HEADER = [
  'series',
  'flavor',
  'base_version',
  'version',
  'label',
  'imported',
  'test',
  'threads',
  ...TABLE_FIGURES.map(({ csv }) => csv),
  ...TABLE_FIGURES.map(({ csv }) => `${csv}_rel`),
  'detectable_drop',
  'relative_qps',
  'relative_qps_low',
  'relative_qps_high',
  'source',
  'step',
  // Last, so the columns before it keep the places they had before memory settings reached history.
  'memory',
] as const;

/** Relative QPS against the base as the report shows it: chained with its interval, or a median (no interval). */
function relativeQpsCells(relative: HistoryRelativeQps | null | undefined): (string | number)[] {
  if (relative === null || relative === undefined) return ['', '', '', '', ''];
  const value = relative.value === Number.POSITIVE_INFINITY ? INFINITE_CELL : relative.value;
  if (relative.source === 'median') return [value, '', '', 'median', ''];
  return [value, relative.low, relative.high, 'chained', relative.step?.direction ?? ''];
}

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
 * Long format: one record per (version, test, threads, memory setting: empty for none), absolute figures then the same
 * relative to the base, then
 * the smallest drop the release's newest valid check could detect, then relative QPS as the report shows it: chained
 * to the base with its interval (source chained), or the median ratio (source median, no interval), and the step
 * that began at the version (down, up or empty).
 */
export function historyCsv(view: HistoryView): string {
  const base = view.versions[view.baseIndex]?.version ?? '';
  const relative = view.tests.map((row) => relativeRow(view, row.figures));
  const relativeQps = view.tests.map((row) => relativeQpsRow(view, row));
  const records = view.versions.flatMap((version, index) =>
    view.tests.map((row, testIndex) =>
      csvRecord([
        view.series,
        view.flavor,
        base,
        version.version,
        version.label,
        String(version.imported),
        row.test,
        row.threads,
        ...cells(row.figures[index]),
        ...cells(relative[testIndex]?.[index]),
        // The newest valid check of the release: empty where it was not checked here.
        row.detectableDrop?.[index] ?? '',
        ...relativeQpsCells(relativeQps[testIndex]?.[index]),
        row.memory ?? '',
      ]),
    ),
  );
  return csvRecord(HISTORY_CSV_HEADER) + records.join('');
}
