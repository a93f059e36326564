// The bisect room: the commits between a release and its last good, built and measured until the one that regressed.
export {
  bisectRelease,
  runBisection,
  type BisectDeps,
  type BisectRequest,
  type BisectResult,
  type BisectRun,
  type BisectRunDeps,
} from './bisect.js';
export { BisectRangeError, NoRegressedTestsError, regressedTests } from './bisect-range.js';
export { bisectLanes, type BisectLane } from './bisect-step.js';
export { bisectNewEvents, eventBisectDeps, type EventBisectDeps } from './event-bisect.js';
export { bisectMessage } from './bisect-message.js';
