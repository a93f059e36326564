export { run, start, defaultEnv, killAllChildren, type RunOptions, type RunResult, type ChildHandle } from './run.js';
export { ExecError, ExecNotFoundError, ExecTimeoutError } from './errors.js';
export {
  CLOCK_TICKS_PER_SECOND,
  isZombie,
  otherPids,
  processAlive,
  processArgv,
  processGroup,
  processStartMs,
  processStartTicks,
  processUid,
  selfIdentity,
  userId,
  type ProcessIdentity,
} from './process-info.js';
export { stopProcess, type StopOutcome, type StopProcessOptions } from './stop-process.js';
