import { testLabel, type ComparisonView, type SideFigures, type TargetLabel, type TestRow } from './comparison-view.js';
import type { Block } from './document.js';
import { formatPercent, formatRange, formatRatio, formatSignificant, UNDEFINED_CELL } from './number-format.js';
import { ratio, spreadPercent } from './ratio.js';
import { relativeQpsChart } from './relative-qps-chart.js';
import { left, makeTable, right, type Table } from './table.js';

function targetLine(role: string, target: TargetLabel): string {
  return `${role}: ${target.name} (${target.flavor} ${target.version}, profile ${target.serverProfile})`;
}

function hostLine(host: ComparisonView['host']): string {
  const facts = Object.keys(host)
    .sort()
    .map((key) => `${key}=${String(host[key])}`);
  return `host: ${facts.length > 0 ? facts.join(', ') : '(not recorded)'}`;
}

function headerLines(view: ComparisonView): string[] {
  return [
    `session ${view.sessionId}, suite ${view.suite}, ${view.rounds} rounds, ${view.startedAt} to ${view.finishedAt}`,
    targetLine('baseline  B', view.baseline),
    targetLine('candidate C', view.candidate),
    hostLine(view.host),
  ];
}

/**
 * One row per test: the headline table of the reference studies, plus each side's min-max over its samples and,
 * when the session was judged, the verdict.
 */
export function relativeQpsTable(tests: readonly TestRow[]): Table {
  const judged = tests.some((row) => row.verdict !== undefined);
  const columns = [left('test'), ...['B.qps', 'C.qps', 'C/B', 'B.min-max', 'C.min-max', 'B.spread', 'C.spread'].map(right), ...(judged ? [left('verdict')] : [])];
  const spread = (side: SideFigures): string => formatPercent(spreadPercent(side.qpsMin, side.qpsMax, side.qps));
  const rows = tests.map((row) => [
    testLabel(row),
    formatSignificant(row.baseline.qps),
    formatSignificant(row.candidate.qps),
    formatRatio(row.relativeQps),
    formatRange(row.baseline.qpsMin, row.baseline.qpsMax),
    formatRange(row.candidate.qpsMin, row.candidate.qpsMax),
    spread(row.baseline),
    spread(row.candidate),
    ...(judged ? [row.verdict?.kind ?? UNDEFINED_CELL] : []),
  ]);
  return makeTable(columns, rows);
}

/** One line per test that is not ok: why, and for a regression which per-op figures grew (the hint). */
export function verdictLines(tests: readonly TestRow[]): string[] {
  return tests.flatMap((row) => {
    const v = row.verdict;
    if (v === undefined || v.kind === 'ok') return [];
    const head = `${testLabel(row)}: ${v.kind}, C/B ${formatRatio(row.relativeQps)}`;
    switch (v.kind) {
      case 'regression': {
        const grew = v.hint.map((h) => `${h.metric} ${h.ratio === null ? 'from 0' : `x${formatRatio(h.ratio)}`}`).join(', ');
        return [`${head} < ${formatRatio(v.threshold)}, p=${formatSignificant(v.pSlower)}; grew: ${grew || 'no per-op figure (the host did the same work per operation, slower)'}`];
      }
      case 'improvement':
        return [`${head} > ${formatRatio(1 / v.threshold)}, p=${formatSignificant(v.pFaster)}`];
      case 'unstable':
        // Two reasons lead here (analysis/verdict.ts classify): a drop the rounds cannot call significant, or a
        // baseline that varies more than the margin.
        if (row.relativeQps < v.threshold) {
          return [`${head} < ${formatRatio(v.threshold)}, but the rounds taken cannot call the drop significant (p=${formatSignificant(v.pSlower)}): inconclusive; rerun with more rounds or longer tests`];
        }
        return [`${head}: the baseline varies ${formatPercent(v.baselineSpread * 100)} between rounds, more than the ${formatPercent((1 - v.threshold) * 100)} margin; rerun with more rounds or longer tests`];
    }
  });
}

const PER_OP_FIELDS = [
  ['cpu/o', 'cpuPerOp'],
  ['cs/o', 'csPerOp'],
  ['r/o', 'readsPerOp'],
  ['rKB/o', 'readKBPerOp'],
  ['wKB/o', 'writeKBPerOp'],
  ['o/s', 'qps'],
  ['cpuµs/o', 'cpuMicrosPerOp'],
] as const;

/** Absolute figures of B and C, then C relative to B: the per-test table of the reference studies. */
export function perOpTable(row: TestRow, baseline: TargetLabel, candidate: TargetLabel): Table {
  const columns = [left('role'), ...PER_OP_FIELDS.map(([header]) => right(header)), left('target')];
  const absolute = (side: SideFigures): string[] => PER_OP_FIELDS.map(([, field]) => formatSignificant(side.perOp[field]));
  const relative = PER_OP_FIELDS.map(([, field]) => formatRatio(ratio(row.candidate.perOp[field], row.baseline.perOp[field])));
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
  const moved = (name: string): boolean => (row.baseline.dbPerOp[name] ?? 0) !== 0 || (row.candidate.dbPerOp[name] ?? 0) !== 0;
  const names = [...new Set([...Object.keys(row.baseline.dbPerOp), ...Object.keys(row.candidate.dbPerOp)])].filter(moved).sort();
  const rows = names.map((name) => {
    const b = row.baseline.dbPerOp[name];
    const c = row.candidate.dbPerOp[name];
    const relative = b === undefined || c === undefined ? UNDEFINED_CELL : formatRatio(ratio(c, b));
    return [name, optionalFigure(b), optionalFigure(c), relative];
  });
  return makeTable([left('counter/o'), right('B'), right('C'), right('C/B')], rows);
}

function testBlocks(view: ComparisonView, row: TestRow): Block[] {
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: `Per operation: ${testLabel(row)}` },
    { kind: 'table', table: perOpTable(row, view.baseline, view.candidate) },
  ];
  const counters = dbCounterTable(row);
  if (counters.rows.length > 0) blocks.push({ kind: 'table', table: counters });
  return blocks;
}

/** The report's title: the first heading, and the HTML page's title. */
export function comparisonTitle(view: ComparisonView): string {
  return `qpswatch comparison: ${view.candidate.name} vs ${view.baseline.name}`;
}

/** The comparison report as format-independent blocks; renderers for text, markdown (and email bodies) lay it out. */
export function comparisonDocument(view: ComparisonView): Block[] {
  const relative: Block[] =
    view.tests.length > 0
      ? [{ kind: 'table', table: relativeQpsTable(view.tests) }, relativeQpsChart(view)]
      : [{ kind: 'lines', lines: ['(no tests in this session)'] }];
  const verdicts = verdictLines(view.tests);
  const judged = view.tests.some((row) => row.verdict !== undefined);
  return [
    { kind: 'heading', level: 1, text: comparisonTitle(view) },
    { kind: 'lines', lines: headerLines(view) },
    { kind: 'heading', level: 2, text: 'Relative QPS (C/B)' },
    ...relative,
    ...(judged ? [{ kind: 'heading', level: 2, text: 'Verdicts' } as const, { kind: 'lines', lines: verdicts.length > 0 ? verdicts : ['every test ok'] } as const] : []),
    ...view.tests.flatMap((row) => testBlocks(view, row)),
  ];
}
