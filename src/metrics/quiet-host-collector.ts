import { Gauge, type Registry } from 'prom-client';
import type { HealthRead } from './health-read.js';

export function registerQuietHostCollector(registry: Registry, read: HealthRead): void {
  new Gauge({
    name: 'qpswatch_quiet_host_wait_seconds',
    help: 'How long the current session has waited for a quiet host; 0 when not waiting.',
    registers: [registry],
    async collect() {
      this.set((await read()).quietHostWaitSeconds);
    },
  });
}
