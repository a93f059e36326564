import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';
import { queueStates } from '../model/index.js';

const LABELS = ['state'] as const;

export function registerQueueCollector(registry: Registry, read: HealthRead): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_queue_releases',
    help: 'Releases in the daemon queue, by state.',
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const { queue } = await read();
      for (const state of queueStates) this.set({ state }, queue[state] ?? 0);
    },
  });
}
