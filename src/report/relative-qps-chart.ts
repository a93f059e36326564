import { testLabel, type ComparisonView } from '../model/index.js';
import type { Block } from './document.js';

/**
 * Relative QPS (C/B) by test as a bar chart: each bar toned by its test's verdict (neutral when the session was not
 * judged), with reference lines at 1 and at each threshold the verdicts used.
 */
export function relativeQpsChart(view: ComparisonView): Block {
  const thresholds = view.tests.flatMap((row) => (row.verdict === undefined ? [] : [row.verdict.threshold]));
  return {
    kind: 'chart',
    title: 'C/B by test',
    bars: view.tests.map((row) => ({
      label: testLabel(row),
      value: row.relativeQps,
      tone: row.verdict?.kind ?? 'neutral',
      ...(row.verdict !== undefined ? { low: row.verdict.low, high: row.verdict.high } : {}),
    })),
    references: [...new Set([1, ...thresholds])].sort((a, b) => a - b),
  };
}
