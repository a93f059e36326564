import { Counter, Gauge, type Registry } from 'prom-client';
import { setCounter } from './counter-value.js';
import type { HealthRead } from './health-read.js';
import { BUILD_RESULTS } from './source.js';

const LABELS = ['result'] as const;

export function registerBuildCollectors(registry: Registry, read: HealthRead): void {
  new Counter<(typeof LABELS)[number]>({
    name: 'qpswatch_builds_total',
    help: 'Builds that ended, by result.',
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const { builds } = await read();
      this.reset();
      for (const result of BUILD_RESULTS) setCounter(this, builds[result], { result });
    },
  });
  new Counter({
    name: 'qpswatch_build_failures_total',
    help: 'Builds that failed.',
    registers: [registry],
    async collect() {
      setCounter(this, (await read()).builds.failed);
    },
  });
  new Gauge({
    name: 'qpswatch_last_build_duration_seconds',
    help: "The newest finished build's duration in seconds; 0 before the first.",
    registers: [registry],
    async collect() {
      this.set((await read()).lastBuildDurationSeconds ?? 0);
    },
  });
}
