export { runComparison, type CompareRequest, type CompareDeps, type CompareOutcome } from './compare.js';
export { prepareTarget, resolveTarget, UnknownTargetError, type PreparedTarget } from './target.js';
export { discoverAll, type DiscoveryOutcome } from './discover.js';
export { buildRelease, type BuildOutcome, type BuildStatus, type BuildDeps } from './build-release.js';
export { roundOrder } from './round-order.js';
export { measureTest, type MeasureInput } from './measure.js';
export { TargetInstance } from './instance.js';
