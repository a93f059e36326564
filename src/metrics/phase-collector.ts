import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';
import { cyclePhases } from '../model/index.js';

const LABELS = ['phase'] as const;

/** Every phase is always exported, 1 for the current one: a panel or rule never has to guess a missing series. */
export function registerPhaseCollector(registry: Registry, read: HealthRead): void {
  new Gauge<(typeof LABELS)[number]>({
    name: 'qpswatch_phase',
    help: "1 for the daemon's current phase, 0 for the others.",
    labelNames: LABELS,
    registers: [registry],
    async collect() {
      const { phase } = await read();
      for (const p of cyclePhases) this.set({ phase: p }, p === phase ? 1 : 0);
    },
  });
}
