import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';

export function registerSessionCollector(registry: Registry, read: HealthRead): void {
  new Gauge({
    name: 'qpswatch_last_session_duration_seconds',
    help: "The newest done session's duration in seconds; 0 before the first.",
    registers: [registry],
    async collect() {
      this.set((await read()).lastSessionDurationSeconds ?? 0);
    },
  });
}
