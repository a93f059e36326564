import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerBuildCollectors } from './build-collectors.js';
import { registerDiscoveryCollector } from './discovery-collector.js';
import { registerPhaseCollector } from './phase-collector.js';
import { registerProgressCollectors } from './progress-collectors.js';
import { NO_PROGRESS } from './progress-source.js';
import { registerPollCollectors } from './poll-collectors.js';
import { registerQueueCollector } from './queue-collector.js';
import { registerQuietHostCollector } from './quiet-host-collector.js';
import { registerRegressionsCollector } from './regressions-collector.js';
import { registerReleaseCollectors } from './release-collectors.js';
import { registerRetriesCollector } from './retries-collector.js';
import { registerSessionCollector } from './session-collector.js';
import { sharedRead } from './shared-read.js';
import type { MetricsSource } from './source.js';

/**
 * Every qpswatch family plus prom-client's process metrics, on the registry given (a fresh one by default, never the
 * global one: two servers in one process, as in tests, must not share series).
 */
export function createMetricsRegistry(source: MetricsSource, registry: Registry = new Registry()): Registry {
  collectDefaultMetrics({ register: registry });
  registerReleaseCollectors(registry, sharedRead(() => source.releaseFigures()));
  const health = sharedRead(() => source.health());
  registerPhaseCollector(registry, health);
  registerQueueCollector(registry, health);
  registerRetriesCollector(registry, health);
  registerDiscoveryCollector(registry, health);
  registerBuildCollectors(registry, health);
  registerSessionCollector(registry, health);
  registerPollCollectors(registry, health);
  registerRegressionsCollector(registry, health);
  registerQuietHostCollector(registry, health);
  registerProgressCollectors(registry, () => source.progress?.() ?? NO_PROGRESS);
  return registry;
}
