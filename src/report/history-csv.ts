import { csvRecord } from './csv.js';
import { HISTORY_INSTRUCTIONS_CSV, historyInstructionsCells } from './history-instructions.js';
import { relativeQpsRow, relativeRow, type HistoryRelativeQps } from './history-figures.js';
import { figureOf, TABLE_FIGURES } from '../model/index.js';
import type { Figures, HistoryView } from '../model/index.js';
import { INFINITE_CELL } from './number-format.js';
import { shownFigures, type TableFigure } from './shown-figures.js';

/** The header, with the figure columns the view shows (shownFigures). */
export const historyCsvHeader = (figures: readonly TableFigure[] = TABLE_FIGURES): string[] => [
  'series',
  'flavor',
  'base_version',
  'version',
  'label',
  'imported',
  'test',
  'threads',
  ...figures.map(({ csv }) => csv),
  ...figures.map(({ csv }) => `${csv}_rel`),
  'detectable_drop',
  'relative_qps',
  'relative_qps_low',
  'relative_qps_high',
  'source',
  'step',
  // Last, so the columns before it keep the places they had before memory settings reached history.
  'memory',
  // The instructions lane's, after it for the same reason.
  ...HISTORY_INSTRUCTIONS_CSV,
];

/** Relative QPS against the base as the report shows it: chained with its interval, or a median (no interval). */
export function relativeQpsCells(relative: HistoryRelativeQps | null | undefined): (string | number)[] {
  if (relative === null || relative === undefined) return ['', '', '', '', ''];
  const value = relative.value === Number.POSITIVE_INFINITY ? INFINITE_CELL : relative.value;
  if (relative.source === 'median') return [value, '', '', 'median', ''];
  return [value, relative.low, relative.high, 'chained', relative.step?.direction ?? ''];
}

// Full precision (csv is for machines); empty fields when a version was not measured; x/0 as "inf", which
// spreadsheets and pandas read as infinity, so it is not confused with a missing figure.
function cells(shown: readonly TableFigure[], figures: Figures | null | undefined): (string | number)[] {
  return shown.map(({ field }) => {
    if (figures === null || figures === undefined) return '';
    // NaN: a figure the version's results lack (stored or imported before it existed), empty as a missing version.
    const value = figureOf(figures, field);
    return value === Number.POSITIVE_INFINITY ? INFINITE_CELL : Number.isNaN(value) ? '' : value;
  });
}

/**
 * Long format: one record per (version, test, threads, memory setting: empty for none), absolute figures then the same
 * relative to the base, then
 * the smallest drop the release's newest valid check could detect, then relative QPS as the report shows it: chained
 * to the base with its interval (source chained), or the median ratio (source median, no interval), and the step
 * that began at the version (down, up or empty); last the instructions lane's figure of a 1-thread test: instructions
 * per query, its repeats' spread and count, its ratio to the base's count of the same conditions with the repeats'
 * bounds, and the verdict against the base (empty where the version was not counted, or has no such base figure).
 */
export function historyCsv(view: HistoryView): string {
  const base = view.versions[view.baseIndex]?.version ?? '';
  const relative = view.tests.map((row) => relativeRow(view, row.figures));
  const relativeQps = view.tests.map((row) => relativeQpsRow(view, row));
  const shown = shownFigures(view.tests.flatMap((row) => row.figures));
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
        ...cells(shown, row.figures[index]),
        ...cells(shown, relative[testIndex]?.[index]),
        // The newest valid check of the release: empty where it was not checked here.
        row.detectableDrop?.[index] ?? '',
        ...relativeQpsCells(relativeQps[testIndex]?.[index]),
        row.memory ?? '',
        ...historyInstructionsCells(row.instructions?.[index]),
      ]),
    ),
  );
  return csvRecord(historyCsvHeader(shown)) + records.join('');
}
