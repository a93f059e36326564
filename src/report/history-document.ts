import { shownFigures, type TableFigure } from './shown-figures.js';
import {
  figureOf,
  testLabel,
  type Figures,
  type HistoryTest,
  type HistoryView,
  type HostChange,
} from '../model/index.js';
import type { Block, HeadlinePart } from './document.js';
import { historyBisectionLines } from './bisection-line.js';
import { historyInstructionsBlocks } from './history-instructions.js';
import {
  hasChained,
  IMPORTED_FOOTNOTE,
  MEDIAN_FOOTNOTE,
  MEDIAN_MARK,
  relativeQpsRow,
  relativeRow,
  STEP_FOOTNOTE,
  STEP_MARKS,
  versionCell,
  type HistoryRelativeQps,
} from './history-figures.js';
import {
  formatConfidence,
  formatDropPercent,
  formatInterval,
  formatRelative,
  formatSignificant,
  UNDEFINED_CELL,
} from './number-format.js';
import { left, makeTable, right, type Table } from './table.js';
import { historyLevels, levelPhrase, type HistoryLevel } from './history-levels.js';
import { byFamily, testFamily, type TestFamily } from './test-family.js';
import { ratioTone } from './tones.js';

export function historyTitle(view: HistoryView): string {
  return `qpswatch history: ${view.flavor} ${view.series}`;
}

function baseVersion(view: HistoryView): string {
  const base = view.versions[view.baseIndex];
  return base === undefined ? UNDEFINED_CELL : versionCell(base);
}

/** The tag of each version whose tag is not its version text: the tables are headed by versions. */
function tagLines(view: HistoryView): string[] {
  return view.versions.flatMap((version) =>
    version.label !== '' && version.label !== version.version ? [`${versionCell(version)}: tag ${version.label}`] : [],
  );
}

/**
 * A new fingerprint of the same machine, and why: its results start a history of their own, and the older ones are
 * one flag away.
 */
function hostChangeLine(change: HostChange): string {
  const facts = change.changed.map((c) => `${c.fact} ${c.from} -> ${c.to}`).join('; ');
  return (
    `host changed on ${change.runner}, ${change.at.slice(0, 10)}: ${change.from} -> ${change.to}` +
    `${facts !== '' ? ` (${facts})` : ''}; results before it: qpswatch report --host ${change.from}`
  );
}

function headerLines(view: HistoryView): string[] {
  return [
    `series ${view.series}, flavor ${view.flavor}, base ${baseVersion(view)}`,
    `host: ${view.host}`,
    ...(view.hostChanges ?? []).map(hostChangeLine),
    `generated: ${view.generatedAt}`,
    ...tagLines(view),
    ...(view.versions.some((version) => version.imported) ? [IMPORTED_FOOTNOTE] : []),
  ];
}

/** The versions as column headings, imported ones marked: the same in every table of the history. */
function versionColumns(view: HistoryView): ReturnType<typeof right>[] {
  return view.versions.map((version) => right(versionCell(version)));
}

/** A relative QPS cell: "0.89 (0.86-0.91)" chained, "0.91~" a median; a step's mark first; "-" where not measured. */
export function relativeQpsCell(relative: HistoryRelativeQps | null): string {
  if (relative === null) return formatRelative(undefined);
  if (relative.source === 'median') return `${formatRelative(relative.value)}${MEDIAN_MARK}`;
  const mark = relative.step === null ? '' : STEP_MARKS[relative.step.direction];
  // The base's own cell is 1 by definition: no interval to print.
  return relative.steps === 0
    ? formatRelative(relative.value)
    : `${mark}${formatRelative(relative.value)} (${formatInterval(relative.low, relative.high)})`;
}

const atLevel = (row: HistoryTest, level: HistoryLevel): boolean =>
  row.threads === level.threads && row.memory === level.memory;

/**
 * The studies' table for one level: one row per version by its name, one column per test run at the level's threads
 * (and memory setting), QPS relative to the base release, two decimals. Chained through the paired checks with its
 * interval where the version has a chain to the base, else the median of unpaired runs, marked.
 */
export function historyRelativeQpsTable(view: HistoryView, level: HistoryLevel, family?: TestFamily): Table {
  const tests = view.tests.filter(
    (row) => atLevel(row, level) && (family === undefined || testFamily(row.test) === family),
  );
  const cells = tests.map((row) => relativeQpsRow(view, row));
  const rows = view.versions.map((version, index) => [
    versionCell(version),
    ...cells.map((row) => relativeQpsCell(row[index] ?? null)),
  ]);
  // Each cell in its ratio's colour against the test's threshold, imported versions too: a drop stands out anywhere.
  const tones = view.versions.map((_, index) => [
    undefined,
    ...cells.map((row, t) => ratioTone(row[index]?.value, tests[t]!.threshold ?? DEFAULT_THRESHOLD)),
  ]);
  return makeTable([left('version'), ...tests.map((row) => right(row.test))], rows, tones);
}

/** The threshold a history cell is toned against when its test has none recorded (imports): the daemon's default. */
const DEFAULT_THRESHOLD = 0.95;

/**
 * One heading and table per level, memory setting and test family (as the studies group them: point queries, range
 * queries, range queries with aggregation, writes); the heading names them, so the columns are the tests' names
 * alone. HTML adds each family's chart under its table.
 */
function relativeQpsTables(view: HistoryView, chart: boolean): Block[] {
  return historyLevels(view.tests).flatMap((level): Block[] =>
    byFamily(
      view.tests.filter((row) => atLevel(row, level)),
      (row) => row.test,
    ).flatMap(({ family, items }): Block[] => [
      {
        kind: 'heading',
        level: 2,
        text: `Relative QPS at ${levelPhrase(level)}: ${family} (version / ${baseVersion(view)})`,
      },
      { kind: 'table', table: historyRelativeQpsTable(view, level, family) },
      ...(chart ? [historyQpsChart(view, items, family)] : []),
    ]),
  );
}

/** What the relative QPS table's marks and parentheses stand for: only the ones it uses. */
function relativeLegend(view: HistoryView): string[] {
  const cells = view.tests.flatMap((row) => relativeQpsRow(view, row));
  const chained = cells.some((c) => c?.source === 'chained' && c.steps > 0);
  return [
    ...(chained
      ? [
          `chained through the paired checks to the base, ` +
            `${formatConfidence(view.confidence ?? 0.95)} interval in parentheses`,
        ]
      : []),
    ...(cells.some((c) => c?.source === 'chained' && c.step !== null) ? [STEP_FOOTNOTE] : []),
    ...(cells.some((c) => c?.source === 'median') ? [MEDIAN_FOOTNOTE] : []),
  ];
}

/** The newest chained version of a test, and its tag. */
function newestChained(
  view: HistoryView,
  row: HistoryTest,
): { index: number; relative: Extract<HistoryRelativeQps, { source: 'chained' }> } | undefined {
  const cells = relativeQpsRow(view, row);
  for (let index = cells.length - 1; index >= 0; index--) {
    const cell = cells[index];
    if (cell?.source === 'chained') return { index, relative: cell };
  }
  return undefined;
}

function fine(value: number): string {
  return value.toFixed(3);
}

/**
 * One line per test whose newest chained estimate is under its threshold (docs/verdicts.md): drift suspected, to be
 * confirmed by a session against the base; or measured so by one already (a single check, against the base itself).
 */
export function historyDriftLines(view: HistoryView): string[] {
  return view.tests.flatMap((row) => {
    const newest = newestChained(view, row);
    if (
      newest === undefined ||
      row.threshold === undefined ||
      newest.relative.steps === 0 ||
      !(newest.relative.value < row.threshold)
    )
      return [];
    const version = view.versions[newest.index]!;
    const { value, low, high } = newest.relative;
    const figures = `${fine(value)} of base, interval ${fine(low)}-${fine(high)}`;
    if (newest.relative.steps === 1)
      return [
        `${testLabel(row)}: under the threshold ${formatRelative(row.threshold)} ` +
          `at ${versionCell(version)}, measured against the base (${figures})`,
      ];
    return [
      `${testLabel(row)}: drift suspected at ${versionCell(version)} (chained ` +
        `${figures}); confirm with \`qpswatch check ${version.label} ` +
        `--against-base\``,
    ];
  });
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
  const columns = [left('test'), ...versionColumns(view)];
  const rows = view.tests.map((row) => [
    testLabel(row),
    ...view.versions.map((_, index) => {
      const drop = row.detectableDrop?.[index] ?? null;
      return drop === null ? UNDEFINED_CELL : formatDropPercent(drop);
    }),
  ]);
  return makeTable(columns, rows);
}

function figureCells(
  shown: readonly TableFigure[],
  figures: Figures | null,
  format: (value: number) => string,
): string[] {
  // NaN: a figure the version's results lack (stored or imported before it existed).
  return shown.map(({ field }) => {
    const value = figures === null ? Number.NaN : figureOf(figures, field);
    return Number.isNaN(value) ? UNDEFINED_CELL : format(value);
  });
}

/**
 * One row per version: the absolute figures and the version, then the same figures relative to the base release
 * (0/0 = 1, x/0 = inf), the per-op table of the reference studies.
 */
export function historyPerOpTable(view: HistoryView, row: HistoryTest): Table {
  const shown = shownFigures(row.figures);
  const columns = [
    ...shown.map(({ header }) => right(header)),
    left('version'),
    ...shown.map(({ header }) => right(`rel.${header}`)),
  ];
  const relative = relativeRow(view, row.figures);
  const rows = view.versions.map((version, index) => [
    ...figureCells(shown, row.figures[index] ?? null, formatSignificant),
    versionCell(version),
    ...figureCells(shown, relative[index] ?? null, formatRelative),
  ]);
  return makeTable(columns, rows);
}

function testBlocks(view: HistoryView, row: HistoryTest): Block[] {
  return [
    { kind: 'heading', level: 2, text: `Per operation: ${testLabel(row)}` },
    { kind: 'table', table: historyPerOpTable(view, row) },
  ];
}

/**
 * The newest version's QPS relative to the base, by test of a family: each bar in its ratio's colour against the
 * test's threshold, its chained interval as a whisker, the thresholds and 1 as reference lines.
 */
export function historyQpsChart(
  view: HistoryView,
  tests: readonly HistoryTest[] = view.tests,
  family?: TestFamily,
): Block {
  const newest = view.versions.length - 1;
  const version = view.versions[newest];
  const thresholds = tests.flatMap((row) => (row.threshold === undefined ? [] : [row.threshold]));
  return {
    kind: 'chart',
    title:
      `${version === undefined ? UNDEFINED_CELL : versionCell(version)} / ${baseVersion(view)} by test` +
      (family !== undefined ? `: ${family}` : ''),
    bars: tests.map((row) => {
      const cell = relativeQpsRow(view, row)[newest] ?? null;
      const value = cell?.value ?? Number.NaN;
      return {
        label: testLabel(row),
        value,
        tone: ratioTone(value, row.threshold ?? DEFAULT_THRESHOLD) ?? 'neutral',
        judged: false,
        ...(cell?.source === 'chained' && cell.steps > 0 ? { low: cell.low, high: cell.high } : {}),
      };
    }),
    references: [...new Set([1, ...thresholds])].sort((a, b) => a - b),
  };
}

/** A test's chained series as a trend: the value, its interval, and the steps, by version; the threshold drawn. */
export function historyTrend(view: HistoryView, row: HistoryTest): Block {
  const points = relativeQpsRow(view, row).map((cell, index) => ({
    label: versionCell(view.versions[index]!),
    value: cell?.value ?? null,
    low: cell?.source === 'chained' ? cell.low : null,
    high: cell?.source === 'chained' ? cell.high : null,
    step: cell?.source === 'chained' ? (cell.step?.direction ?? null) : null,
  }));
  return {
    kind: 'trend',
    title: `${testLabel(row)}: version / ${baseVersion(view)}`,
    points,
    threshold: row.threshold ?? null,
  };
}

/** How the newest version's tests stand against the base, as the headline's counts name them. */
type Standing = 'under' | 'slower' | 'within' | 'improved';
const STANDING: Readonly<Record<Standing, { tone: HeadlinePart['tone']; words: string }>> = {
  under: { tone: 'regression', words: 'under the threshold' },
  slower: { tone: 'slower', words: 'slower' },
  within: { tone: 'ok', words: 'within the threshold' },
  improved: { tone: 'improvement', words: 'improved' },
};

function standing(value: number, threshold: number): Standing {
  const tone = ratioTone(value, threshold);
  return tone === 'regression'
    ? 'under'
    : tone === 'slower'
      ? 'slower'
      : tone === 'improvement'
        ? 'improved'
        : 'within';
}

/**
 * The history's headline: the newest version against the base, read at a glance, each count in its colour: the
 * tests' relative QPS (as the table colours them), then the instructions lane's verdicts against the base.
 */
export function historyHeadline(view: HistoryView): Block[] {
  const newest = view.versions.length - 1;
  if (newest <= 0 || newest === view.baseIndex) return [];
  const counts = new Map<Standing, number>();
  for (const row of view.tests) {
    const value = relativeQpsRow(view, row)[newest]?.value;
    if (value === undefined) continue;
    const s = standing(value, row.threshold ?? DEFAULT_THRESHOLD);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const lane = view.tests
    .map((row) => row.instructions?.[newest]?.verdict)
    .filter((v) => v !== undefined && v !== null);
  const grew = lane.filter((v) => v === 'regression').length;
  const parts: HeadlinePart[] = (['under', 'slower', 'improved', 'within'] as const)
    .filter((s) => (counts.get(s) ?? 0) > 0)
    .map((s) => ({ tone: STANDING[s].tone, text: `${counts.get(s)} ${STANDING[s].words}` }));
  if (lane.length > 0)
    parts.push(
      grew > 0
        ? { tone: 'regression', text: `instructions: ${grew} past the threshold` }
        : { tone: 'ok', text: `instructions: ${lane.length} within the threshold` },
    );
  if (parts.length === 0) return [];
  const lead = `newest ${versionCell(view.versions[newest]!)} against the base ${baseVersion(view)}:`;
  return [{ kind: 'headline', text: parts.map((p) => p.text).join(', '), parts, lead }];
}

/**
 * The history report as blocks; `chart` (HTML) adds the newest version's chart under the relative QPS table and a
 * trend chart per test.
 */
export function historyDocument(view: HistoryView, options: { chart?: boolean } = {}): Block[] {
  const legend = relativeLegend(view);
  const drift = historyDriftLines(view);
  const trends: Block[] =
    options.chart === true && hasChained(view)
      ? byFamily(view.tests, (row) => row.test).flatMap(({ family, items }): Block[] => [
          { kind: 'heading', level: 2, text: `Trend by test: ${family} (chained relative QPS, interval shaded)` },
          ...items.map((row) => historyTrend(view, row)),
        ])
      : [];
  const relative: Block[] =
    view.tests.length > 0
      ? [
          ...relativeQpsTables(view, options.chart === true),
          ...(legend.length > 0 ? [{ kind: 'lines', lines: legend } as const] : []),
          ...(drift.length > 0
            ? [
                { kind: 'heading', level: 2, text: 'Drift against the base' } as const,
                { kind: 'lines', lines: drift } as const,
              ]
            : []),
          ...historyInstructionsBlocks(view),
          ...trends,
        ]
      : [{ kind: 'lines', lines: ['(no tests in this history)'] }];
  const drops: Block[] = hasDetectableDrops(view)
    ? [
        { kind: 'heading', level: 2, text: 'Detectable drop (the newest valid check of each version)' },
        { kind: 'table', table: historyDetectableDropTable(view) },
      ]
    : [];
  const bisections: Block[] =
    view.bisections !== undefined && view.bisections.length > 0
      ? [
          { kind: 'heading', level: 2, text: 'Bisections (the newest of each release)' },
          { kind: 'lines', lines: historyBisectionLines(view.bisections) },
        ]
      : [];
  return [
    { kind: 'heading', level: 1, text: historyTitle(view) },
    ...historyHeadline(view),
    { kind: 'lines', lines: headerLines(view) },
    ...(view.tests.length > 0
      ? []
      : [{ kind: 'heading', level: 2, text: `Relative QPS (version / ${baseVersion(view)})` } as const]),
    ...relative,
    ...bisections,
    ...drops,
    ...view.tests.flatMap((row) => testBlocks(view, row)),
  ];
}
