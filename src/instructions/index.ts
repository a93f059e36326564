export {
  parseCallgrindOutput,
  CallgrindOutputError,
  type CallgrindProfile,
  type CountedFunction,
} from './callgrind-output.js';
export { callgrindArgv, parseValgrindVersion, COLLECT_FUNCTION, ZERO_FUNCTION, MIN_VALGRIND } from './callgrind.js';
export {
  connectionThreadCount,
  parsePerfStatPerThread,
  perfProbeProblem,
  perfStatArgv,
  PerfStatError,
  PERF_EVENT,
  type ThreadCount,
} from './perf-stat.js';
export {
  findInstructionCounter,
  type CounterChoice,
  type FindCounterOptions,
  type InstructionCounter,
} from './counter.js';
export { perQueryFunctions, MIN_FUNCTION_SHARE } from './function-table.js';
