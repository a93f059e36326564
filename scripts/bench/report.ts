import { median } from '../../src/analysis/index.js';
import { left, makeTable, renderTextTable, right } from '../../src/report/index.js';
import type { SamplerCost } from './sampler-cost.js';
import {
  bootstrapInterval,
  judgeGoal,
  medianPairRatio,
  middleHalfSpread,
  ratioOfMedians,
  type Interval,
  type RunPair,
} from './stats.js';

/** One pair of runs as measured: QPS from sysbench, wall time from spawn to parsed result. */
export interface MeasuredPair extends RunPair {
  withFirst: boolean;
  withoutWallMs: number;
  withWallMs: number;
}

export interface OverheadReport {
  heading: string;
  seconds: number;
  goal: number;
  pairs: readonly MeasuredPair[];
  cost: SamplerCost;
}

const RESAMPLES = 10_000;

const qps = (v: number): string => v.toFixed(1);
const r3 = (v: number): string => v.toFixed(3);
const range = (i: Interval): string => `${r3(i.low)} .. ${r3(i.high)}`;

/**
 * The per-run table, the ratio with its interval and the goal, the ratio as compare computes it, the samplers' cost.
 */
export function renderOverheadReport(report: OverheadReport): string {
  const { pairs, goal } = report;
  const rows = pairs.map((p, i) => [
    String(i + 1),
    p.withFirst ? 'with' : 'without',
    qps(p.without),
    qps(p.with),
    r3(p.with / p.without),
  ]);
  rows.push([
    'median',
    '',
    qps(median(pairs.map((p) => p.without))),
    qps(median(pairs.map((p) => p.with))),
    r3(medianPairRatio(pairs)),
  ]);
  const table = makeTable(
    [right('pair'), left('first'), right('without qps'), right('with qps'), right('with/without')],
    rows,
  );
  const paired = bootstrapInterval(pairs, medianPairRatio, { resamples: RESAMPLES });
  const unpaired = bootstrapInterval(pairs, ratioOfMedians, { resamples: RESAMPLES });
  return [
    report.heading,
    '',
    ...renderTextTable(table),
    '',
    `overhead ratio (with / without) = ${r3(medianPairRatio(pairs))}   95% ` +
      `interval ${range(paired)}   (median of the pair ratios; bootstrap over ` +
      `pairs)`,
    `goal >= ${goal}: ${verdictText(judgeGoal(paired, goal), goal)}`,
    `as compare computes it, median(with) / median(without) = ` +
      `${r3(ratioOfMedians(pairs))}   95% interval ${range(unpaired)}`,
    `noise: the middle half of the runs without samplers lies within ` +
      `+-${pct(middleHalfSpread(pairs.map((p) => p.without)))} of their ` +
      `median; of the pair ratios, within ` +
      `+-${pct(middleHalfSpread(pairs.map((p) => p.with / p.without)))}`,
    '',
    ...costLines(report),
    '',
  ].join('\n');
}

function costLines({ cost, seconds, pairs }: OverheadReport): string[] {
  const perRunMs = 2 * cost.sampleMs;
  const wallWithout = median(pairs.map((p) => p.withoutWallMs));
  const wallWith = median(pairs.map((p) => p.withWallMs));
  return [
    `sampler cost, timed directly (median of ${cost.count}, server idle as ` +
      `between runs): takeHostSnapshot ${ms(cost.snapshotMs)} + SHOW GLOBAL ` +
      `STATUS ${ms(cost.queryMs)} + its parse ${ms(cost.parseMs)} = ` +
      `${ms(cost.sampleMs)} per sample (slowest ${ms(cost.slowestSampleMs)})`,
    `  2 samples per run = ${ms(perRunMs)} against a ${seconds} s run ` +
      `(${((perRunMs / (seconds * 1000)) * 100).toFixed(3)}%), taken before ` +
      `and after sysbench's timed interval, not during it`,
    `wall time per run, spawn to result (median): without ` +
      `${(wallWithout / 1000).toFixed(3)} s, with ` +
      `${(wallWith / 1000).toFixed(3)} s (${signed(wallWith - wallWithout)} ` +
      `ms)`,
  ];
}

function verdictText(verdict: ReturnType<typeof judgeGoal>, goal: number): string {
  switch (verdict) {
    case 'met':
      return `met (the whole interval is at or above ${goal})`;
    case 'missed':
      return `missed (the whole interval is below ${goal})`;
    case 'within noise':
      return (
        `not resolved: the interval includes ${goal}; the noise between runs is ` +
        `wider than the goal's margin (more --pairs narrow it)`
      );
  }
}

function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function ms(value: number): string {
  return `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;
}
