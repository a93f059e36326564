export { PatchFileError, PatchFileModeError, buildPatches } from './build-patches.js';
export { discoverAll, type DiscoveryOutcome } from './discover.js';
export {
  buildRelease,
  buildSettings,
  type BuildOutcome,
  type BuildStatus,
  type BuildDeps,
  type BuildSettings,
} from './build-release.js';
export { obtainRelease, fetchRelease, TARBALL_PROFILE, TarballVariantError } from './fetch-release.js';
export {
  checkRelease,
  lastGoodBelow,
  ReleaseNotBuiltError,
  type CheckAgainst,
  type CheckDeps,
  type CheckRequest,
  type CheckResult,
} from './check-release.js';
export {
  checkAndConfirm,
  confirmOwed,
  suspicionText,
  type CheckedResult,
  type ConfirmedCheck,
  type ConfirmOptions,
} from './confirm-drift.js';
export {
  acceptedReference,
  BaseNotBuiltError,
  chainedSeries,
  chainChecks,
  confirmedDrifts,
  NoSeriesBaseError,
  NotAfterBaseError,
  reanchorDue,
  seriesBase,
  stepsByTest,
  suspectedDrifts,
  type DriftSuspicion,
} from './drift.js';
export { checkSettings, type CheckSettings, type BisectSettings } from './check-settings.js';
export { cycleSettings, type CycleSettings } from './cycle-settings.js';
export { alertSettings, type AlertSettings } from './alert-messages.js';
export { deliverPending, mailSettings, type DeliverDeps } from './deliver.js';
export { runCycle, type CycleDeps, type CycleOutcome, type PhaseDetail } from './cycle.js';
export { fleetSettings, joinFleet, slotOf, type FleetMember, type FleetSettings } from './fleet.js';
export { waitForQuietHost, quietHostSettings, type QuietHostSettings, type QuietHostWait } from './quiet-host-wait.js';
export {
  selectPrune,
  pruneBuilds,
  pruneAfterCheck,
  type PruneSelection,
  type PrunedBuild,
  type PruneKeepReason,
} from './prune-builds.js';
export { buildCommit, type CommitBuildOutcome, type CommitToBuild } from './build-commit.js';
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
