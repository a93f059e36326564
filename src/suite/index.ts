export { loadSuite, resolveThreads } from './load-suite.js';
export {
  SuiteError,
  type Suite,
  type SuiteLevel,
  type SuiteLoad,
  type SuiteWarmup,
  type SuiteTest,
  type SuiteOverrides,
  type ScriptArgs,
} from './suite.js';
export { PROJECT_SCRIPT_DIR, STOCK_SCRIPT_DIRS, defaultScriptDirs } from './script-lookup.js';
export {
  countedArgv,
  prepareArgv,
  runArgv,
  statementsArgv,
  warmupArgv,
  isOwnedOption,
  LOAD_SEED,
  type SysbenchConnection,
} from './sysbench-args.js';
export { writeSysbenchPassword } from './sysbench-password.js';
export {
  parseSysbenchOutput,
  SysbenchOutputError,
  SysbenchResultSchema,
  type SysbenchResult,
} from './sysbench-output.js';
export { findSysbench, SysbenchMissingError } from './find-sysbench.js';
export {
  listStatements,
  runSysbench,
  prepareSysbench,
  SysbenchRunError,
  type SysbenchRunOptions,
} from './run-sysbench.js';
export { narrowSuite, UnknownSuiteTestError } from './narrow-suite.js';
