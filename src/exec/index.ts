export { run, start, defaultEnv, killAllChildren, type RunOptions, type RunResult, type ChildHandle } from './run.js';
export { ExecError, ExecNotFoundError, ExecTimeoutError } from './errors.js';
export {
  CLOCK_TICKS_PER_SECOND,
  isZombie,
  otherPids,
  processAlive,
  processArgv,
  processCwd,
  processGroup,
  processSession,
  processStartMs,
  processStartTicks,
  processUid,
  selfIdentity,
  userId,
  userName,
  type ProcessIdentity,
} from './process-info.js';
export { stopProcess, type StopOutcome, type StopProcessOptions } from './stop-process.js';
export {
  describeHolder,
  fileOwner,
  LockFileError,
  LockFileRefusedError,
  LockUnreadableError,
  LockWaitAbortedError,
  parseHolder,
  trustedLockOwners,
  tryPidLock,
  waitForPidLock,
  type LockAttempt,
  type PidLock,
  type PidLockHolder,
  type PidLockOptions,
  type WaitOptions,
} from './pid-lock.js';
