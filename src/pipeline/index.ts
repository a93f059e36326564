export { runComparison, type CompareRequest, type CompareDeps, type CompareOutcome } from './compare.js';
export { prepareTarget, UnknownTargetError, type PreparedTarget } from './target.js';
export { roundOrder } from './round-order.js';
