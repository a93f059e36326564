import { Counter, type Registry } from 'prom-client';
import { setCounter } from './counter-value.js';
import type { HealthRead } from './health-read.js';

export function registerDiscoveryCollector(registry: Registry, read: HealthRead): void {
  new Counter({
    name: 'qpswatch_releases_discovered_total',
    help: 'Releases ever discovered, all upstreams.',
    registers: [registry],
    async collect() {
      setCounter(this, (await read()).releasesDiscovered);
    },
  });
}
