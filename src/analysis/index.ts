export { compareSession } from './comparison.js';
export { median } from './median.js';
export { judgeSession, classify, robustSpread, type TestVerdict, type VerdictKind, type VerdictSettings, type HintItem } from './verdict.js';
export { maxTPermutationTest, type Run, type PermutationResult } from './permutation.js';
export { selectLastGood, type GoodRelease } from './last-good.js';
export { planEvents, type EventPlan } from './events.js';
export { buildHistory, type HistoryColumn, type HistoryRow, type HistoryTable, type VersionFigures } from './history.js';
