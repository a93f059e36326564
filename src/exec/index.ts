export { run, start, defaultEnv, type RunOptions, type RunResult, type ChildHandle } from './run.js';
export { ExecError, ExecNotFoundError, ExecTimeoutError } from './errors.js';
export {
  CLOCK_TICKS_PER_SECOND,
  isZombie,
  processAlive,
  processGroup,
  processStartMs,
  processStartTicks,
  processUid,
  selfIdentity,
  type ProcessIdentity,
} from './process-info.js';
