import { Gauge, type Registry } from 'prom-client';
import { RELEASE_LABELS, type ReleaseFigureRow, type ReleaseLabel } from './source.js';

interface ReleaseFamily {
  name: string;
  help: string;
  value: (row: ReleaseFigureRow) => number | null;
}

/** The per-release families: one gauge each, all with the same labels, all filled from one read per scrape. */
export const RELEASE_FAMILIES: readonly ReleaseFamily[] = [
  { name: 'qpswatch_qps', help: 'Median QPS (sysbench queries per second) of the version for the test.', value: (r) => r.qps },
  { name: 'qpswatch_relative_qps', help: "QPS relative to the series' base release (0/0 = 1).", value: (r) => r.relativeQps },
  {
    name: 'qpswatch_relative_to_last_good',
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
  { name: 'qpswatch_cpu_seconds_per_op', help: 'Host CPU seconds per operation (median).', value: (r) => r.cpuSecondsPerOp },
  { name: 'qpswatch_context_switches_per_op', help: 'Host context switches per operation (median).', value: (r) => r.contextSwitchesPerOp },
  { name: 'qpswatch_read_ops_per_op', help: 'Reads from the data device per operation (median).', value: (r) => r.readOpsPerOp },
  { name: 'qpswatch_read_bytes_per_op', help: 'Bytes read from the data device per operation (median).', value: (r) => r.readBytesPerOp },
  { name: 'qpswatch_written_bytes_per_op', help: 'Bytes written to the data device per operation (median).', value: (r) => r.writtenBytesPerOp },
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
