import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';

/** Together they answer "no poll in two intervals" without the rule knowing the schedule. */
export function registerPollCollectors(registry: Registry, read: HealthRead): void {
  new Gauge({
    name: 'qpswatch_last_poll_timestamp_seconds',
    help: 'Unix time of the last finished discovery; 0 before the first.',
    registers: [registry],
    async collect() {
      this.set((await read()).lastPollSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'qpswatch_poll_interval_seconds',
    help: "The schedule's interval between polls, in seconds.",
    registers: [registry],
    async collect() {
      this.set((await read()).pollIntervalSeconds);
    },
  });
}
