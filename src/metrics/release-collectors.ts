import { Gauge, type Registry } from 'prom-client';
import { PER_OP_FIGURES } from '../model/index.js';
import { RELEASE_LABELS, type ReleaseFigureRow, type ReleaseLabel } from './source.js';

interface ReleaseFamily {
  name: string;
  help: string;
  value: (row: ReleaseFigureRow) => number | null;
}

/**
 * The per-release families: one gauge each, all with the same labels, all filled from one read per scrape. The per-op
 * families are the figure table's, one per entry of PER_OP_FIGURES in its order, named and described by its `metric`.
 */
export const RELEASE_FAMILIES: readonly ReleaseFamily[] = [
  { name: 'qpswatch_qps', help: 'Median QPS (sysbench queries per second) of the version for the test.', value: (r) => r.qps },
  { name: 'qpswatch_relative_qps_ratio', help: "QPS relative to the series' base release (0/0 = 1).", value: (r) => r.relativeQps },
  {
    name: 'qpswatch_relative_to_last_good_ratio',
    help: "Relative QPS of the version's newest valid check, against the last good release of that time.",
    value: (r) => r.relativeToLastGood,
  },
  {
    name: 'qpswatch_detectable_drop_ratio',
    help: "Smallest drop (0.05 = 5%) the version's newest valid check could detect for the test, 4 times in 5 at its alpha.",
    value: (r) => r.detectableDrop,
  },
  {
    name: 'qpswatch_regression_open',
    help: 'Whether a regression event that started with this version is open for the test (1) or not (0).',
    value: (r) => (r.regressionOpen ? 1 : 0),
  },
  ...PER_OP_FIGURES.map(({ field, metric }): ReleaseFamily => ({ name: metric.name, help: metric.help, value: (r) => r.perOp[field] })),
  { name: 'qpswatch_latency_p95_seconds', help: "Median of sysbench's 95th percentile latency, in seconds.", value: (r) => r.latencyP95Seconds },
];

/** Registers the per-release gauges; each scrape replaces all their samples, so pruned versions disappear. */
export function registerReleaseCollectors(registry: Registry, read: () => Promise<ReleaseFigureRow[]>): void {
  for (const family of RELEASE_FAMILIES) {
    new Gauge<ReleaseLabel>({
      name: family.name,
      help: family.help,
      labelNames: RELEASE_LABELS,
      registers: [registry],
      async collect() {
        const rows = await read();
        this.reset();
        for (const row of rows) {
          const value = family.value(row);
          // Infinity (a base that did 0 QPS) or NaN would read as a measurement on a dashboard: left out.
          if (value !== null && Number.isFinite(value)) this.set(row.labels, value);
        }
      },
    });
  }
}
