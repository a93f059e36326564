import {
  PER_OP_FIGURES,
  type ComparisonView,
  type SideSummary,
  type TargetLabel,
  type TestRow,
} from '../model/index.js';
import { csvRecord } from './csv.js';

export const COMPARISON_CSV_HEADER = [
  'suite',
  'test',
  'threads',
  'role',
  'target',
  'flavor',
  'version',
  'qps',
  'relative_qps',
  ...PER_OP_FIGURES.map((f) => f.csv),
  'cpu_us_o',
  'verdict',
  'low',
  'high',
  'confidence',
  'detectable_drop',
  'pairs',
  'noise',
  'memory',
  'hit_ratio',
];

type Role = 'baseline' | 'candidate';

// Numbers keep full precision: csv is for machines; rounding is the text renderer's business.
function sideRecord(
  view: ComparisonView,
  row: TestRow,
  role: Role,
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
    ...PER_OP_FIGURES.map((f) => perOp[f.field]),
    perOp.cpuMicrosPerOp,
    // The verdict is the test's, given on both records; empty when the session was not judged (and high or noise
    // when not defined: a single pair). low-high is the interval of relative QPS at `confidence`.
    row.verdict?.kind ?? '',
    ...verdictFigures(row),
    // Empty: the session ran the server profiles as they are; the hit ratio is empty without the counters.
    view.memory ?? '',
    side.hitRatio ?? '',
  ]);
}

function verdictFigures(row: TestRow): (string | number)[] {
  const v = row.verdict;
  if (v === undefined) return ['', '', '', '', '', ''];
  return [v.low, v.high ?? '', v.confidence, v.detectableDrop, v.pairs, v.noise ?? ''];
}

/**
 * One record per test and side. relative_qps is relative to the baseline on both records (1 on the baseline's),
 * so the column can be charted or pivoted without knowing which record is which.
 */
export function comparisonCsv(view: ComparisonView): string {
  const records = view.tests.flatMap((row) => [
    sideRecord(view, row, 'baseline', view.baseline, row.baseline, 1),
    sideRecord(view, row, 'candidate', view.candidate, row.candidate, row.relativeQps),
  ]);
  return csvRecord(COMPARISON_CSV_HEADER) + records.join('');
}
