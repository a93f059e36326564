export {
  runComparison,
  InstructionLaneUnavailableError,
  checkMemorySettings,
  checkSessionReach,
  judgeStored,
  hostSummary,
  type CompareRequest,
  type CompareDeps,
  type CompareOutcome,
  type SessionPlan,
} from './compare.js';
export {
  prepareTarget,
  releaseInstallDir,
  resolveTarget,
  StoredInstallPathError,
  UnknownTargetError,
  TarballTargetError,
  VariantNotBuiltError,
  type PreparedTarget,
  type PrepareTargetOptions,
  type TargetSources,
} from './target.js';
export { splitVariant, type ReleaseVariant } from './build-variant.js';
export { roundOrder } from './round-order.js';
export { measureTest, MeasureFailedError, type MeasureInput } from './measure.js';
export {
  runPairedSession,
  type IdleServerMode,
  type PairedOutcome,
  type PairedPlan,
  type PairedStop,
} from './paired-session.js';
export {
  realSessionParts,
  systemClock,
  type ProcessActivity,
  type SessionClock,
  type SessionParts,
  type SideServer,
} from './session-parts.js';
export { instanceNeutral, keepServerVariables } from './server-variables.js';
export { sideDifferences } from './side-differences.js';
export { fillPlaceholders } from './statement-plans.js';
export { loadTarget, type RoundContext } from './round.js';
export { prepareStateFolders, TargetInstance, type ServerLaunch } from './target-instance.js';
export { LoadedDatadirCache } from './datadir-cache.js';
export { compareSettings, type CompareSettings } from './settings.js';
export {
  runCalibration,
  calibrationTarget,
  releaseBudget,
  NoCalibrationTargetError,
  type CalibrateRequest,
  type CalibrationOutcome,
  type StoredCalibrationSettings,
} from './calibrate.js';
export {
  thisHostCalibration,
  thisHostCalibrations,
  calibrationExpectation,
  calibratedDrops,
  calibrationOrWarn,
  levelReach,
  noisyLevelLine,
  percentRange,
  NOISY_LEVEL_DROP,
  type LevelReach,
} from './host-calibration.js';
export {
  DataChangingTestError,
  stockDataChangerRefusal,
  suiteDataChangerRefusal,
  checkRowCounts,
} from './data-changing.js';
export {
  planSweeps,
  budgetRefusal,
  roundsRefusal,
  sweepPlanText,
  PreflightError,
  RUN_OVERHEAD_SECONDS,
  RESTART_SECONDS,
  RESTART_WARMUP_SECONDS,
  type BlockSettings,
  type SweepPlan,
  type SettingSource,
} from './preflight.js';
export {
  BYTES_PER_ROW,
  checkMemorySetting,
  estimatedDataBytes,
  memoryOverlay,
  memoryProblem,
  MemorySettingError,
  withMemorySetting,
  type MemoryFacts,
  type SuiteData,
} from './memory-setting.js';
export { PoolTooSmallError, readTablesIntoPool, type CachedTables } from './cache-tables.js';
export { builtInstall } from './release-install.js';
export { runProfile, type ProfileDeps, type ProfileOutcome, type ProfileRequest } from './profile-run.js';
export {
  profileFiles,
  profileReport,
  storedProfileReport,
  writeProfileFiles,
  type ProfileFiles,
} from './profile-files.js';
export {
  laneAnnouncement,
  laneMinutes,
  laneTests,
  planInstructionLane,
  runInstructionLane,
  type InstructionLaneSettings,
  type LaneContext,
  type LanePlan,
} from './instruction-lane.js';
export { sessionLaneView, type LaneViewStore } from './lane-view.js';
export { countOnce, launchOf, NothingCountedError, type CountRequest, type CountResult } from './instruction-count.js';
export { binaryIdentity, hashOf, laneConditions, LANE_VERSION, type LaneBasis } from './instruction-conditions.js';
