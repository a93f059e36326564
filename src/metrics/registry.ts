import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerBuildCollectors } from './build-collectors.js';
import { registerBuildInfoCollector } from './build-info-collector.js';
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
import { registerThresholdCollector } from './threshold-collector.js';

/** The event-loop delay histogram's sampling period (ms): one wake-up a second. */
const EVENT_LOOP_PRECISION_MS = 1000;

/**
 * Every qpswatch family plus prom-client's process metrics, on the registry given (a fresh one by default, never the
 * global one: two servers in one process, as in tests, must not share series).
 */
export function createMetricsRegistry(source: MetricsSource, registry: Registry = new Registry()): Registry {
  // prom-client samples event-loop delay every 10 ms by default: 100 wake-ups a second, most of an idle daemon's CPU.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_PRECISION_MS });
  registerBuildInfoCollector(registry, source.build);
  const figures = sharedRead(() => source.releaseFigures());
  registerReleaseCollectors(registry, figures);
  registerThresholdCollector(registry, figures);
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
