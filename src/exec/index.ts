export { run, start, defaultEnv, type RunOptions, type RunResult, type ChildHandle } from './run.js';
export { ExecError, ExecNotFoundError, ExecTimeoutError } from './errors.js';
