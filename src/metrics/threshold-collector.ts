import { Gauge, type Registry } from 'prom-client';
import type { ReleaseFigureRow } from './source.js';

const LABELS = ['series', 'test'] as const;

/**
 * The configured regression threshold per series and test, so alert rules and dashboards compare relative QPS with
 * what qpswatch's own verdicts use instead of a copy of it. One sample per series and test that has release figures:
 * the threshold depends on the test alone (threshold, test_thresholds), the series is there for the rules to join on.
 */
export function registerThresholdCollector(registry: Registry, read: () => Promise<ReleaseFigureRow[]>): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_regression_threshold_ratio',
    help: "Relative QPS under which a test's drop is a regression (threshold, or the test's entry in test_thresholds).",
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const { labels, threshold } of rows) this.set({ series: labels.series, test: labels.test }, threshold);
    },
  });
}
