import {
  figureOf,
  type ComparisonView,
  type SampleRole,
  type SideSummary,
  type TargetLabel,
  type TestId,
  type TestRow,
} from '../model/index.js';
import { csvRecord } from './csv.js';
import { functionRecords, instructionsCells, INSTRUCTIONS_CSV_COLUMNS } from './instructions-data.js';
import { shownFigures, type TableFigure } from './shown-figures.js';

/** The per-op figures of the CSV: the table's, without o/s (qps has its own place) and the time figures none has. */
const csvFigures = (view: ComparisonView): TableFigure[] =>
  shownFigures(view.tests.flatMap((t) => [t.baseline.perOp, t.candidate.perOp])).filter((f) => f.field !== 'qps');

const header = (figures: readonly TableFigure[]): string[] => [
  'suite',
  'test',
  'threads',
  'role',
  'target',
  'flavor',
  'version',
  'qps',
  'relative_qps',
  ...figures.map((f) => f.csv),
  'verdict',
  'low',
  'high',
  'confidence',
  'detectable_drop',
  'pairs',
  'noise',
  'memory',
  'hit_ratio',
  // The instructions lane's, last, so the QPS lane's columns keep their places.
  ...INSTRUCTIONS_CSV_COLUMNS,
];

// Numbers keep full precision: csv is for machines; rounding is the text renderer's business.
function sideRecord(
  view: ComparisonView,
  figures: readonly TableFigure[],
  row: TestRow,
  role: SampleRole,
  target: TargetLabel,
  side: SideSummary,
  relativeQps: number,
): string {
  const { perOp } = side;
  return csvRecord([
    view.suite,
    row.test,
    row.threads,
    role,
    target.name,
    target.flavor,
    target.version,
    side.qps,
    relativeQps,
    // Empty where a figure is absent (NaN: no sample had it).
    ...figures.map((f) => (Number.isNaN(figureOf(perOp, f.field)) ? '' : figureOf(perOp, f.field))),
    // The verdict is the test's, given on both records; empty when the session was not judged (and high or noise
    // when not defined: a single pair). low-high is the interval of relative QPS at `confidence`.
    row.verdict?.kind ?? '',
    ...verdictFigures(row),
    // Empty: the session ran the server profiles as they are; the hit ratio is empty without the counters.
    view.memory ?? '',
    side.hitRatio ?? '',
    ...instructionsCells(view.instructions, row, role),
  ]);
}

/**
 * A function record's cells before the lane's: the test and side as a test record names them, every QPS figure
 * empty (a function record has none), the session's memory setting.
 */
function functionLead(view: ComparisonView, figures: readonly TableFigure[]) {
  return (test: TestId, role: SampleRole): (string | number)[] => {
    const target = view[role];
    return [
      view.suite,
      test.test,
      test.threads,
      role,
      target.name,
      target.flavor,
      target.version,
      '',
      '',
      ...figures.map(() => ''),
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      view.memory ?? '',
      '',
    ];
  };
}

function verdictFigures(row: TestRow): (string | number)[] {
  const v = row.verdict;
  if (v === undefined) return ['', '', '', '', '', ''];
  return [v.low, v.high ?? '', v.confidence, v.detectableDrop, v.pairs, v.noise ?? ''];
}

/**
 * One record per test and side. relative_qps is relative to the baseline on both records (1 on the baseline's),
 * so the column can be charted or pivoted without knowing which record is which; the instructions lane's C/B the
 * same. After them, the lane's functions that grew: one record per test, function and side, with the function's
 * name (empty on every test record: that is how the two kinds of record are told apart) and no QPS figure.
 */
export function comparisonCsv(view: ComparisonView): string {
  const figures = csvFigures(view);
  const records = view.tests.flatMap((row) => [
    sideRecord(view, figures, row, 'baseline', view.baseline, row.baseline, 1),
    sideRecord(view, figures, row, 'candidate', view.candidate, row.candidate, row.relativeQps),
  ]);
  const functions = functionRecords(view.instructions, functionLead(view, figures)).map(csvRecord);
  return csvRecord(header(figures)) + records.join('') + functions.join('');
}
