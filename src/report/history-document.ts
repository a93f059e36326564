import { TABLE_FIGURES, testLabel, type Figures, type HistoryTest, type HistoryView } from '../model/index.js';
import type { Block } from './document.js';
import { columnName, IMPORTED_FOOTNOTE, relativeRow, versionCell } from './history-figures.js';
import { formatDropPercent, formatRelative, formatSignificant, UNDEFINED_CELL } from './number-format.js';
import { left, makeTable, right, type Table } from './table.js';

export function historyTitle(view: HistoryView): string {
  return `qpswatch history: ${view.flavor} ${view.series}`;
}

function baseVersion(view: HistoryView): string {
  const base = view.versions[view.baseIndex];
  return base === undefined ? UNDEFINED_CELL : versionCell(base);
}

function headerLines(view: HistoryView): string[] {
  const columns = view.versions.map((version, index) => {
    const label = version.label !== '' && version.label !== version.version ? ` (${version.label})` : '';
    return `${columnName(index)}: ${versionCell(version)}${label}`;
  });
  return [
    `series ${view.series}, flavor ${view.flavor}, base ${baseVersion(view)} (${columnName(view.baseIndex)})`,
    `host: ${view.host}`,
    `generated: ${view.generatedAt}`,
    ...columns,
    ...(view.versions.some((version) => version.imported) ? [IMPORTED_FOOTNOTE] : []),
  ];
}

/** One row per test, one column per version: QPS relative to the base release, two decimals. */
export function historyRelativeQpsTable(view: HistoryView): Table {
  const columns = [left('test'), ...view.versions.map((_, index) => right(columnName(index)))];
  const rows = view.tests.map((row) => [testLabel(row), ...relativeRow(view, row.figures).map((relative) => formatRelative(relative?.qps))]);
  return makeTable(columns, rows);
}

/** Whether any version of any test has a detectable drop: histories of imports or old checks have none. */
function hasDetectableDrops(view: HistoryView): boolean {
  return view.tests.some((row) => (row.detectableDrop ?? []).some((drop) => drop !== null));
}

/**
 * One row per test, one column per version: the smallest drop the newest valid check of that release could detect
 * (so how small a regression its verdict could have caught); "-" where it was not checked here.
 */
export function historyDetectableDropTable(view: HistoryView): Table {
  const columns = [left('test'), ...view.versions.map((_, index) => right(columnName(index)))];
  const rows = view.tests.map((row) => [testLabel(row), ...view.versions.map((_, index) => {
    const drop = row.detectableDrop?.[index] ?? null;
    return drop === null ? UNDEFINED_CELL : formatDropPercent(drop);
  })]);
  return makeTable(columns, rows);
}

function figureCells(figures: Figures | null, format: (value: number) => string): string[] {
  return TABLE_FIGURES.map(({ field }) => (figures === null ? UNDEFINED_CELL : format(figures[field])));
}

/**
 * One row per version: the absolute figures and the version, then the same figures relative to the base release
 * (0/0 = 1, x/0 = inf), the per-op table of the reference studies.
 */
export function historyPerOpTable(view: HistoryView, row: HistoryTest): Table {
  const columns = [
    ...TABLE_FIGURES.map(({ header }) => right(header)),
    left('version'),
    ...TABLE_FIGURES.map(({ header }) => right(`rel.${header}`)),
  ];
  const relative = relativeRow(view, row.figures);
  const rows = view.versions.map((version, index) => [
    ...figureCells(row.figures[index] ?? null, formatSignificant),
    versionCell(version),
    ...figureCells(relative[index] ?? null, formatRelative),
  ]);
  return makeTable(columns, rows);
}

function testBlocks(view: HistoryView, row: HistoryTest): Block[] {
  return [
    { kind: 'heading', level: 2, text: `Per operation: ${testLabel(row)}` },
    { kind: 'table', table: historyPerOpTable(view, row) },
  ];
}

/** The newest version's QPS relative to the base, by test (neutral: a history has no verdicts), reference at 1. */
export function historyQpsChart(view: HistoryView): Block {
  const newest = view.versions.length - 1;
  const version = view.versions[newest];
  return {
    kind: 'chart',
    title: `${version === undefined ? UNDEFINED_CELL : versionCell(version)} / ${baseVersion(view)} by test`,
    bars: view.tests.map((row) => ({ label: testLabel(row), value: relativeRow(view, row.figures)[newest]?.qps ?? Number.NaN, tone: 'neutral' })),
    references: [1],
  };
}

/** The history report as blocks; `chart` adds the newest version's chart under the relative QPS table. */
export function historyDocument(view: HistoryView, options: { chart?: boolean } = {}): Block[] {
  const relative: Block[] =
    view.tests.length > 0
      ? [{ kind: 'table', table: historyRelativeQpsTable(view) }, ...(options.chart === true ? [historyQpsChart(view)] : [])]
      : [{ kind: 'lines', lines: ['(no tests in this history)'] }];
  const drops: Block[] = hasDetectableDrops(view)
    ? [{ kind: 'heading', level: 2, text: 'Detectable drop (the newest valid check of each version)' }, { kind: 'table', table: historyDetectableDropTable(view) }]
    : [];
  return [
    { kind: 'heading', level: 1, text: historyTitle(view) },
    { kind: 'lines', lines: headerLines(view) },
    { kind: 'heading', level: 2, text: `Relative QPS (version / ${baseVersion(view)})` },
    ...relative,
    ...drops,
    ...view.tests.flatMap((row) => testBlocks(view, row)),
  ];
}
