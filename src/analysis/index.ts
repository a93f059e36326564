export { bufferPoolHitRatio, compareSession } from './comparison.js';
export { compareServerVariables } from './server-variables.js';
export { compareStatementPlans, planLine, planShape, type SidePlan } from './statement-plans.js';
export { median } from './median.js';
export { judgeSession, classify, robustSpread, thresholdOf, type VerdictSettings } from './verdict.js';
export {
  maxTPermutationTest,
  roundsForAlpha,
  smallestPValue,
  type Run,
  type PermutationResult,
} from './permutation.js';
export { checkStanding, selectLastGood, type CheckStanding, type GoodRelease } from './last-good.js';
export { newestValidChecks } from './newest-check.js';
export {
  baseIndex,
  groupMedians,
  groupReleaseSides,
  hostReleaseKey,
  newestChecksOnHosts,
  newestReleases,
  releaseSamplesOf,
  releaseSides,
  seriesBases,
  seriesReleaseFigures,
  type CheckedTest,
  type MeasuredSide,
  type ReleaseFigure,
  type ReleaseFigureValues,
  type ReleaseGroup,
  type ReleaseSampleRecord,
  type ReleaseSide,
  type SampleFigureLists,
  type SeriesFigureInput,
} from './release-figures.js';
export { planEvents, type EventPlan } from './events.js';
export {
  buildHistory,
  chainHistory,
  type HistoryColumn,
  type HistoryRow,
  type HistoryTable,
  type ReleaseCheckVerdicts,
} from './history.js';
export { judgePairedSession, plannedBlocksOf } from './verdict.js';
export {
  replayLooks,
  holm,
  measuredBlocks,
  type LookReplay,
  type PairSeries,
  type PairedJudgement,
  type PairedKind,
  type SequentialSettings,
} from './sequential.js';
export {
  blocksToReject,
  canRejectWithin,
  firstReachableBlocks,
  lookPlan,
  lookReach,
  unreachableAlpha,
  MAX_LOOKS,
  MIN_FIRST_BLOCKS,
  type LookPlan,
  type LookReach,
} from './look-plan.js';
export {
  blockScores,
  flipBound,
  flipPValue,
  flipPValues,
  huberEstimate,
  orderCorrected,
  smallestFlipP,
  HUBER_C,
  SCORE_STEPS,
  type BlockedPairs,
  type HuberEstimate,
} from './block-flip.js';
export { instanceBlocks, type InstanceBlocks } from './instance-blocks.js';
export { signFlipMaxT, pairStatistic, criticalValue, SIGN_VECTORS } from './sign-flip.js';
export { studentQuantile, studentCdf } from './student-t.js';
export {
  calibrateTest,
  calibrationInputs,
  detectableDropAt,
  instanceSpread,
  instanceVarianceOf,
  expectationAtBudget,
  pairNoise,
  pairsForDrop,
  CALIBRATION_DROP,
  MAX_CALIBRATION_PAIRS,
  type BlockCost,
  type BudgetExpectation,
  type CalibrationInput,
  type CalibrationSettings,
} from './calibration.js';
export { mulberry32 } from './random.js';
export { chainToBase, driftSuspected, welchDf, type ChainStep, type ChainedEstimate } from './chain.js';
export {
  baseLink,
  chainByTest,
  chainCandidates,
  chainStepDf,
  chainSteps,
  STEP_FALSE_MARK_RATE,
  stepStandardErrors,
  type ChainCheck,
  type ChainLink,
  type ChainStepMark,
} from './series-chain.js';
export {
  afterStep,
  bisectBuildBound,
  conclude,
  nextIndex,
  startSearch,
  stepVerdict,
  type BisectConclusion,
  type BisectSearch,
  type StepOutcome,
} from './bisect-search.js';
export {
  releaseInstructionFigures,
  type InstructionFigureInput,
  type LaneSide,
  type ReleaseInstructionFigure,
} from './instruction-figures.js';
export {
  functionGrowth,
  GROWN_FUNCTIONS,
  sessionFunctionGrowth,
  instructionSide,
  instructionThreshold,
  judgeAgainstStored,
  judgeInstructionRuns,
  judgeInstructionTest,
  perQuery,
  planInstructionEvents,
  type InstructionEventPlan,
  type InstructionVerdictSettings,
} from './instructions.js';
