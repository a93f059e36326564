import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';
import { RETRY_STEPS } from './source.js';

const LABELS = ['step'] as const;

export function registerRetriesCollector(registry: Registry, read: HealthRead): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_queue_retries_pending',
    help: 'Releases whose build or session failed and that wait for another attempt (retry_attempts), by step.',
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const { retriesPending } = await read();
      for (const step of RETRY_STEPS) this.set({ step }, retriesPending[step] ?? 0);
    },
  });
}
