/**
 * The vocabulary every room shares, at the bottom: it imports nothing. What a figure, a test, a verdict, a
 * comparison and a history are is said here once; the rooms above compute, keep and render them.
 */
export {
  PER_OP_FIGURES,
  FIGURE_FIELDS,
  LATENCY_P95_FIELD,
  QPS_FIGURE,
  RATE_FIGURES,
  SAMPLE_FIGURE_FIELDS,
  TABLE_FIGURES,
  TO_BASE_UNIT,
  cpuMicrosPerOp,
  figureOf,
  isWaitingHint,
  mapFigures,
  mapPerOp,
  perOpOfRun,
  perOpUnits,
  type FigureRun,
  type Figures,
  type PerOp,
  type RateField,
  type SampleFigureField,
  type TimeField,
  type UsageRates,
  type PerOpColumn,
  type PerOpField,
  type PerOpFigure,
  type PerOpMetric,
  type PerOpUnit,
} from './figures.js';
export { sampleRoles, testIdOf, testKey, testLabel, type SampleRole, type TestId } from './tests.js';
export { cyclePhases, queueStates, type CyclePhase, type QueueState } from './states.js';
export {
  conclusiveKinds,
  isConclusive,
  verdictKinds,
  type HintFigure,
  type Verdict,
  type VerdictKind,
  type VerdictReachField,
} from './verdict.js';
export {
  sessionDesigns,
  type ComparisonView,
  type RowVerdict,
  type SessionDesignName,
  type SessionLevel,
  type SidePerOp,
  type SideSummary,
  type TargetLabel,
  type TestRow,
  type PlanComparison,
  type PlanDifference,
  type VariableComparison,
  type VariableDifference,
} from './comparison.js';
export type {
  HistoryBisection,
  HostChange,
  HistoryChained,
  HistoryInstructions,
  HistoryStep,
  HistoryTest,
  HistoryVersion,
  HistoryView,
} from './history.js';
export type { HostColumn, HostsHistoryView } from './hosts.js';
export { isMemorySetting, memorySettings, type MemorySettingName } from './memory.js';
export type { CalibrationFigure } from './calibration.js';
export {
  cacheKinds,
  secondsLeft,
  type BuildWorkProgress,
  type CacheKind,
  type CacheSizes,
  type SessionWorkProgress,
  type WorkProgress,
} from './progress.js';
export {
  isProfilingMode,
  profilerTools,
  profilingModes,
  type FoldedStack,
  type FrameShareRow,
  type ProfileSide,
  type ProfilerTool,
  type ProfilingMode,
} from './profile.js';
export {
  instructionCounterKinds,
  instructionCounterSettings,
  instructionVerdictKinds,
  type FunctionCost,
  type FunctionGrowth,
  type InstructionCounterKind,
  type InstructionCounterSetting,
  type InstructionLaneSummary,
  type InstructionsView,
  type InstructionSide,
  type InstructionVerdict,
  type InstructionVerdictKind,
  type TestFunctionGrowth,
} from './instructions.js';
