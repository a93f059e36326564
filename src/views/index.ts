export {
  storedSessionView,
  sessionVerdicts,
  storedPlan,
  UnknownSessionError,
  type SessionJudgement,
  type SessionVerdicts,
  type SessionViewStores,
  type StoredSessionView,
} from './session-view.js';
export { seriesHistory, seriesReleaseSamples, seriesResults, type HistoryOptions } from './history.js';
export {
  fleetMetricsSource,
  storeMetricsSource,
  releaseFigureReader,
  type ReleaseMetricsOptions,
} from './metrics-source.js';
export { storeHealth } from './store-health.js';
export { hostInventory, seriesHostsHistory, type HostsHistoryOptions } from './hosts-history.js';
export { storedInstructionsView } from './instructions-view.js';
