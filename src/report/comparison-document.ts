import {
  figureOf,
  isWaitingHint,
  type HintFigure,
  testLabel,
  type ComparisonView,
  type RowVerdict,
  type SessionDesignName,
  type SidePerOp,
  type SideSummary,
  type TargetLabel,
  type TestRow,
} from '../model/index.js';
import type { Block, VerdictRow } from './document.js';
import { headlineBlock } from './headline.js';
import { instructionsBlocks } from './instructions-table.js';
import { plansBlocks, variablesBlocks } from './side-tables.js';
import { ratioTone, verdictTone } from './tones.js';
import { shownFigures } from './shown-figures.js';
import {
  formatConfidence,
  formatDetectableDrop,
  formatDropPercent,
  formatOkBound,
  formatInterval,
  formatPercent,
  formatRange,
  formatRatio,
  formatSignificant,
  formatSlowerEstimate,
  UNDEFINED_CELL,
} from './number-format.js';
import { ratio, spreadPercent } from './ratio.js';
import { relativeQpsChart } from './relative-qps-chart.js';
import { left, makeTable, right, type Table } from './table.js';

function targetLine(role: string, target: TargetLabel): string {
  const built = target.buildProfile !== undefined ? `, built with ${target.buildProfile}` : '';
  return `${role}: ${target.name} (${target.flavor} ${target.version}${built}, profile ${target.serverProfile})`;
}

function hostLine(host: ComparisonView['host']): string {
  const facts = Object.keys(host)
    .sort()
    .map((key) => `${key}=${String(host[key])}`);
  return `host: ${facts.length > 0 ? facts.join(', ') : '(not recorded)'}`;
}

/** What the session measured, for the header: whole runs in rounds, or alternating pairs up to a maximum. */
function designPhrase(view: ComparisonView): string {
  return view.design === 'paired' ? `paired design, ${view.rounds} pairs at most per test` : `${view.rounds} rounds`;
}

/** ", memory io-bound": what every figure of a session under a memory setting was measured under; empty without one. */
function memoryPhrase(view: ComparisonView): string {
  return view.memory === undefined ? '' : `, memory ${view.memory}`;
}

function headerLines(view: ComparisonView): string[] {
  return [
    `session ${view.sessionId}, suite ${view.suite}, ` +
      `${designPhrase(view)}${memoryPhrase(view)}, ${view.startedAt} to ` +
      `${view.finishedAt}`,
    targetLine('baseline  B', view.baseline),
    targetLine('candidate C', view.candidate),
    hostLine(view.host),
    ...(view.levels !== undefined && view.levels.length > 0 ? [levelsLine(view.levels)] : []),
  ];
}

/** The suite's levels with the threads they came to on the host: "levels: t1 on 1 x 10000 rows; t2 (cores) on ...". */
function levelsLine(levels: NonNullable<ComparisonView['levels']>): string {
  const level = (l: (typeof levels)[number]): string =>
    `t${l.threads}${String(l.threadsSpec) === String(l.threads) ? '' : ` (${l.threadsSpec})`} ` +
    `on ${l.tables} x ${l.tableSize} rows`;
  return `levels: ${levels.map(level).join('; ')}`;
}

/** What a verdict's `pairs` counts: pairs in the paired design, rounds in the whole-run design (and old sessions). */
function countUnit(design: SessionDesignName | undefined): string {
  return design === 'paired' ? 'pair' : 'round';
}

function counted(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The interval's header: "95% interval" when every judged test has the same confidence, else "interval". */
function intervalHeader(tests: readonly TestRow[]): string {
  const confidences = new Set(tests.flatMap((row) => (row.verdict !== undefined ? [row.verdict.confidence] : [])));
  return confidences.size === 1 ? `${formatConfidence([...confidences][0]!)} interval` : 'interval';
}

/**
 * One row per test: the headline table of the reference studies, plus each side's min-max over its samples and,
 * when the session was judged, the interval of C/B, the smallest drop the session could detect, the pairs (or
 * rounds) behind it, and the verdict.
 */
export function relativeQpsTable(tests: readonly TestRow[], design?: SessionDesignName): Table {
  const judged = tests.some((row) => row.verdict !== undefined);
  const judgedColumns = judged ? [right(intervalHeader(tests)), right('detect'), right(`${countUnit(design)}s`)] : [];
  const columns = [
    left('test'),
    ...['B.qps', 'C.qps', 'C/B'].map(right),
    ...judgedColumns,
    ...['B.min-max', 'C.min-max', 'B.spread', 'C.spread'].map(right),
    ...(judged ? [left('verdict')] : []),
  ];
  const spread = (side: SideSummary): string => formatPercent(spreadPercent(side.qpsMin, side.qpsMax, side.qps));
  const judgedCells = (v: RowVerdict | undefined): string[] =>
    v === undefined
      ? [UNDEFINED_CELL, UNDEFINED_CELL, UNDEFINED_CELL]
      : [formatInterval(v.low, v.high), formatDetectableDrop(v.detectableDrop), String(v.pairs)];
  const tones = tests.map((row) => {
    const cb = row.verdict !== undefined ? verdictTone(row.verdict.kind) : ratioTone(row.relativeQps, THRESHOLD_SHOWN);
    const tone = row.verdict?.kind === 'ok' ? undefined : cb;
    return [
      undefined,
      undefined,
      undefined,
      tone,
      ...(judged ? [tone, undefined, undefined] : []),
      undefined,
      undefined,
      undefined,
      undefined,
      ...(judged ? [verdictTone(row.verdict?.kind)] : []),
    ];
  });
  const rows = tests.map((row) => [
    testLabel(row),
    formatSignificant(row.baseline.qps),
    formatSignificant(row.candidate.qps),
    formatRatio(row.relativeQps),
    ...(judged ? judgedCells(row.verdict) : []),
    formatRange(row.baseline.qpsMin, row.baseline.qpsMax),
    formatRange(row.candidate.qpsMin, row.candidate.qpsMax),
    spread(row.baseline),
    spread(row.candidate),
    ...(judged ? [row.verdict?.kind ?? UNDEFINED_CELL] : []),
  ]);
  return makeTable(columns, rows, tones);
}

/** A test not judged has no threshold of its own: its C/B is toned against the default's 0.95. */
const THRESHOLD_SHOWN = 0.95;

/** The verdicts of the session, one row per judged test: its line, and the line without its label for HTML. */
export function verdictRows(tests: readonly TestRow[], design?: SessionDesignName): VerdictRow[] {
  const lines = verdictLines(tests, design);
  const judged = tests.filter((row) => row.verdict !== undefined);
  return judged.map((row, i) => {
    const line = lines[i]!;
    const head = `${testLabel(row)}: ${row.verdict!.kind}`;
    const detail = line.startsWith(head) ? line.slice(head.length).replace(/^,\s*/, '').trim() : line;
    return { label: testLabel(row), kind: row.verdict!.kind, line, detail };
  });
}

/** The headline of a judged session: how many tests got each verdict, worst first. */
export function comparisonHeadline(tests: readonly TestRow[]): Block | undefined {
  const kinds = tests.flatMap((row) => (row.verdict !== undefined ? [row.verdict.kind] : []));
  if (kinds.length === 0) return undefined;
  return headlineBlock(kinds);
}

const growth = (hint: readonly HintFigure[]): string =>
  hint.map((h) => `${h.metric} ${h.ratio === null ? 'from 0' : `x${formatRatio(h.ratio)}`}`).join(', ');

/** Why the time went, when no resource per operation grew but the time off CPU did. */
export const WAITING_TEXT = 'the time went to waiting (IO, locks, sleeps)';

/**
 * A regression's hint in words: the resources that grew; or, when none did, the off-CPU time that grew (the time
 * went to waiting); or that nothing per operation grew.
 */
export function hintText(hint: readonly HintFigure[]): string {
  const resources = hint.filter((h) => !isWaitingHint(h));
  if (resources.length > 0) return `grew: ${growth(resources)}`;
  if (hint.length > 0) return `no resource grew; ${growth(hint)}: ${WAITING_TEXT}`;
  return 'grew: no per-op figure (the host did the same work per operation, slower)';
}

/**
 * One line per judged test (docs/verdicts.md): ok states the largest drop its interval leaves possible; slower gives
 * its estimate and interval (under 1, so significantly slower) and that it is not shown past the margin; unstable
 * gives its interval, that it cannot rule out a drop larger than the margin, and the smallest drop it could detect;
 * a regression names the per-op figures that grew (the hint). Every line carries the interval and the pairs.
 */
export function verdictLines(tests: readonly TestRow[], design?: SessionDesignName): string[] {
  const unit = countUnit(design);
  return tests.flatMap((row) => {
    const v = row.verdict;
    if (v === undefined) return [];
    const interval = `${formatConfidence(v.confidence)} interval ${formatInterval(v.low, v.high)}`;
    const basis = `${interval}, ${counted(v.pairs, unit)}`;
    const head = `${testLabel(row)}: ${v.kind}`;
    const relative = `C/B ${formatRatio(row.relativeQps)}`;
    switch (v.kind) {
      case 'ok':
        // "ok" is a statement about the interval's lower end: no drop larger than 1 - low (none when low >= 1).
        return [`${head}, ${formatOkBound(v.low)} (${basis})`];
      case 'regression': {
        return [
          `${head}, ${relative} < ${formatRatio(v.threshold)}, ` +
            `p=${formatSignificant(v.pSlower)}; ${hintText(v.hint)}; ${basis}`,
        ];
      }
      case 'improvement':
        return [`${head}, ${relative} > ${formatRatio(1 / v.threshold)}, p=${formatSignificant(v.pFaster)}; ${basis}`];
      case 'slower':
        // Decided slower, not decided past the threshold: its own verdict, with no alert (docs/verdicts.md).
        return [
          `${head} ${formatSlowerEstimate(row.relativeQps, v.low, v.high)}, ` +
            `${formatConfidence(v.confidence)} interval, ${counted(v.pairs, unit)}: ` +
            `significantly slower, but not shown to be past the ${formatDropPercent(1 - v.threshold)} margin`,
        ];
      case 'unstable': {
        // Undecided: the interval reaches below the threshold and the drop is not significant (or the budget ran out).
        const drop =
          row.relativeQps < v.threshold
            ? ` < ${formatRatio(v.threshold)} (p=${formatSignificant(v.pSlower)}, not significant)`
            : '';
        const bound =
          v.low <= 0
            ? ' (it rules out no drop)'
            : v.low < v.threshold
              ? ` (it rules out only drops larger than ${formatDropPercent(1 - v.low)})`
              : '';
        const more =
          design === 'paired'
            ? 'calibrate the host (qpswatch calibrate) or give it a larger budget (budget_minutes, max_pairs)'
            : 'more rounds, or the paired design, would narrow it';
        return [
          `${head}, ${relative}${drop}, ${interval}: cannot rule out a drop ` +
            `larger than the ${formatDropPercent(1 - v.threshold)} margin${bound}; ` +
            (v.detectableDrop >= 1
              ? `it could detect no drop (${counted(v.pairs, unit)}: too few for alpha); ${more}`
              : `it could detect drops of ${formatDropPercent(v.detectableDrop)} or ` +
                `more (${counted(v.pairs, unit)}); ${more}`),
        ];
      }
    }
  });
}

/** A side's figure; undefined where it is absent (NaN: stored before the figure existed), printed "-". */
const valueOf = (side: SideSummary, field: keyof SidePerOp): number | undefined => {
  const value = figureOf(side.perOp, field);
  return Number.isNaN(value) ? undefined : value;
};

/**
 * Absolute figures of B and C, then C relative to B: the per-test table of the reference studies (the table's
 * figures, with time per operation after o/s: cpuµs/o reads better than cpu/o's tiny numbers).
 */
export function perOpTable(row: TestRow, baseline: TargetLabel, candidate: TargetLabel): Table {
  const figures = shownFigures([row.baseline.perOp, row.candidate.perOp]);
  const columns = [left('role'), ...figures.map(({ header }) => right(header)), left('target')];
  const absolute = (side: SideSummary): string[] => figures.map(({ field }) => optionalFigure(valueOf(side, field)));
  const relative = figures.map(({ field }) => {
    const [c, b] = [valueOf(row.candidate, field), valueOf(row.baseline, field)];
    return formatRatio(c === undefined || b === undefined ? undefined : ratio(c, b));
  });
  return makeTable(columns, [
    ['B', ...absolute(row.baseline), baseline.name],
    ['C', ...absolute(row.candidate), candidate.name],
    ['C/B', ...relative, ''],
  ]);
}

function optionalFigure(value: number | undefined): string {
  return value === undefined ? UNDEFINED_CELL : formatSignificant(value);
}

/** Database counters per operation, one row per counter either side has: where extra work comes from. */
/** Counters that stayed at zero on both sides say nothing about this test (reads do not flush pages): left out. */
export function dbCounterTable(row: TestRow): Table {
  const moved = (name: string): boolean =>
    (row.baseline.dbPerOp[name] ?? 0) !== 0 || (row.candidate.dbPerOp[name] ?? 0) !== 0;
  const names = [...new Set([...Object.keys(row.baseline.dbPerOp), ...Object.keys(row.candidate.dbPerOp)])]
    .filter(moved)
    .sort();
  const rows = names.map((name) => {
    const b = row.baseline.dbPerOp[name];
    const c = row.candidate.dbPerOp[name];
    const relative = b === undefined || c === undefined ? UNDEFINED_CELL : formatRatio(ratio(c, b));
    return [name, optionalFigure(b), optionalFigure(c), relative];
  });
  return makeTable([left('counter/o'), right('B'), right('C'), right('C/B')], rows);
}

/** "buffer pool hit ratio: B 99.99%, C 99.98%" over the measured runs, when the counters were read. */
export function hitRatioLine(row: TestRow): string | undefined {
  const { baseline, candidate } = row;
  if (baseline.hitRatio === undefined && candidate.hitRatio === undefined) return undefined;
  const ratio = (value: number | undefined): string =>
    value === undefined ? UNDEFINED_CELL : `${(value * 100).toFixed(2)}%`;
  return `buffer pool hit ratio: B ${ratio(baseline.hitRatio)}, C ${ratio(candidate.hitRatio)}`;
}

function testBlocks(view: ComparisonView, row: TestRow): Block[] {
  const hitRatio = hitRatioLine(row);
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: `Per operation: ${testLabel(row)}${memoryPhrase(view)}` },
    { kind: 'table', table: perOpTable(row, view.baseline, view.candidate) },
    ...(hitRatio !== undefined ? [{ kind: 'lines', lines: [hitRatio] } as const] : []),
  ];
  const counters = dbCounterTable(row);
  if (counters.rows.length > 0) blocks.push({ kind: 'table', table: counters });
  return blocks;
}

/** The report's title: the first heading, and the HTML page's title. */
export function comparisonTitle(view: ComparisonView): string {
  return (
    `qpswatch comparison: ${view.candidate.name} vs ` +
    `${view.baseline.name}${view.memory !== undefined ? ` (${view.memory})` : ''}`
  );
}

/** The comparison report as format-independent blocks; renderers for text, markdown (and email bodies) lay it out. */
export function comparisonDocument(view: ComparisonView): Block[] {
  const relative: Block[] =
    view.tests.length > 0
      ? [{ kind: 'table', table: relativeQpsTable(view.tests, view.design) }, relativeQpsChart(view)]
      : [{ kind: 'lines', lines: ['(no tests in this session)'] }];
  const verdicts = verdictRows(view.tests, view.design);
  const judged = view.tests.some((row) => row.verdict !== undefined);
  const headline = comparisonHeadline(view.tests);
  return [
    { kind: 'heading', level: 1, text: comparisonTitle(view) },
    ...(headline !== undefined ? [headline] : []),
    { kind: 'lines', lines: headerLines(view) },
    { kind: 'heading', level: 2, text: `Relative QPS (C/B)${memoryPhrase(view)}` },
    ...relative,
    ...(judged
      ? [
          { kind: 'heading', level: 2, text: `Verdicts${memoryPhrase(view)}` } as const,
          { kind: 'verdicts', rows: verdicts } as const,
        ]
      : []),
    // The instructions lane after the QPS verdicts: both lanes' verdicts are read before the per-test detail.
    ...(view.instructions !== undefined ? instructionsBlocks(view.instructions, memoryPhrase(view)) : []),
    // What the sides ran with, before the per-test detail: a setting or a plan that differs explains the figures.
    ...variablesBlocks(view.variables),
    ...plansBlocks(view.plans),
    ...view.tests.flatMap((row) => testBlocks(view, row)),
  ];
}
