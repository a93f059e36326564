export { bufferPoolHitRatio, compareSession } from './comparison.js';
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
export { judgePairedSession } from './verdict.js';
export {
  replayLooks,
  pairsAtLook,
  alphaAtLook,
  lookSchedule,
  lookReach,
  unreachableAlpha,
  type LookReach,
  type PairSeries,
  type PairedJudgement,
  type SequentialSettings,
} from './sequential.js';
export { signFlipMaxT, pairStatistic, criticalValue, SIGN_VECTORS } from './sign-flip.js';
export { studentQuantile, studentCdf } from './student-t.js';
export {
  calibrateTest,
  calibrationInputs,
  detectableDropAt,
  expectationAtBudget,
  lookOfPairs,
  pairNoise,
  pairsForDrop,
  CALIBRATION_DROP,
  MAX_CALIBRATION_PAIRS,
  type BudgetExpectation,
  type CalibrationInput,
  type CalibrationSettings,
} from './calibration.js';
export { mulberry32 } from './random.js';
export { chainToBase, driftSuspected, type ChainStep, type ChainedEstimate } from './chain.js';
export {
  baseLink,
  chainByTest,
  chainCandidates,
  chainSteps,
  STEP_STANDARD_ERRORS,
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
