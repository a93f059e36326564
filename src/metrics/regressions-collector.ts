import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';

const LABELS = ['series'] as const;

export function registerRegressionsCollector(registry: Registry, read: HealthRead): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_active_regressions',
    help: 'Open regression events per series.',
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const { activeRegressions } = await read();
      // A series whose last event closed must drop to 0 or vanish, not keep its old count.
      this.reset();
      for (const { series, count } of activeRegressions) this.set({ series }, count);
    },
  });
}
