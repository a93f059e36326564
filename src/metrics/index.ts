export {
  BUILD_RESULTS,
  type BuildInfo,
  RELEASE_LABELS,
  type BuildResult,
  type DaemonHealth,
  type DaemonStatus,
  type MetricsSource,
  type ReleaseFigureRow,
  type ReleaseLabel,
  type ReleaseLabels,
  type StoreHealth,
} from './source.js';
export { RELEASE_FAMILIES } from './release-families.js';
export { createMetricsExposition, type MetricsExposition } from './exposition.js';
export type { ProgressFigures } from './progress-source.js';
export {
  DEFAULT_METRICS_HOST,
  DEFAULT_METRICS_PORT,
  startMetricsServer,
  type MetricsServer,
  type MetricsServerOptions,
} from './server.js';
export { MetricsHostError, MetricsPortInUseError } from './errors.js';
