export { runComparison, checkMemorySettings, checkSessionReach, judgeStored, type CompareRequest, type CompareDeps, type CompareOutcome, type SessionPlan, type SessionDesign } from './compare.js';
export { storedSessionView, sessionVerdicts, storedPlan, UnknownSessionError, type SessionJudgement, type SessionVerdicts, type SessionViewStores, type StoredSessionView } from './session-view.js';
export { prepareTarget, resolveTarget, UnknownTargetError, TarballTargetError, VariantNotBuiltError, type PreparedTarget, type PrepareTargetOptions, type TargetSources } from './target.js';
export { splitVariant, type ReleaseVariant } from './build-variant.js';
export { PatchFileError, PatchFileModeError, buildPatches } from './build-patches.js';
export { discoverAll, type DiscoveryOutcome } from './discover.js';
export { buildRelease, buildSettings, type BuildOutcome, type BuildStatus, type BuildDeps, type BuildSettings } from './build-release.js';
export { obtainRelease, fetchRelease, TARBALL_PROFILE, TarballVariantError } from './fetch-release.js';
export { roundOrder } from './round-order.js';
export { measureTest, type MeasureInput } from './measure.js';
export { TargetInstance } from './target-instance.js';
export { checkRelease, lastGoodBelow, ReleaseNotBuiltError, type CheckAgainst, type CheckDeps, type CheckRequest, type CheckResult } from './check-release.js';
export { checkAndConfirm, confirmOwed, suspicionText, type CheckedResult, type ConfirmedCheck, type ConfirmOptions } from './confirm-drift.js';
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
export { compareSettings, checkSettings, cycleSettings, type CompareSettings, type CheckSettings, type CycleSettings } from './settings.js';
export { alertSettings, type AlertSettings } from './alert-messages.js';
export { deliverPending, mailSettings, type DeliverDeps } from './deliver.js';
export { seriesHistory, seriesResults, type HistoryOptions } from './history.js';
export { pipelineMetricsSource, releaseFigureReader, type ReleaseMetricsOptions } from './metrics-source.js';
export { storeHealth } from './store-health.js';
export { runCycle, type CycleDeps, type CycleOutcome, type PhaseDetail } from './cycle.js';
export { waitForQuietHost, quietHostSettings, type QuietHostSettings, type QuietHostWait } from './quiet-host-wait.js';
export { stopStrayProcesses, type StrayProcess, type StrayScope } from './stray-processes.js';
export { selectPrune, pruneBuilds, pruneAfterCheck, type PruneSelection, type PrunedBuild, type PruneKeepReason } from './prune-builds.js';
export { runCalibration, calibrationTarget, releaseBudget, NoCalibrationTargetError, type CalibrateRequest, type CalibrationOutcome, type StoredCalibrationSettings } from './calibrate.js';
export { thisHostCalibration, thisHostCalibrations, calibrationExpectation, calibratedDrops, calibrationOrWarn, levelReach, noisyLevelLine, percentRange, NOISY_LEVEL_DROP, type LevelReach } from './host-calibration.js';
export { planSweeps, budgetRefusal, roundsRefusal, sweepPlanText, PreflightError, RUN_OVERHEAD_SECONDS, type SweepPlan, type SettingSource } from './preflight.js';
export { CacheSizeCache, measureCacheSizes, type CacheSizeCacheOptions } from './cache-sizes.js';
export { BYTES_PER_ROW, checkMemorySetting, estimatedDataBytes, memoryOverlay, memoryProblem, MemorySettingError, withMemorySetting, type MemoryFacts, type SuiteData } from './memory-setting.js';
export { PoolTooSmallError, readTablesIntoPool, type CachedTables } from './cache-tables.js';
