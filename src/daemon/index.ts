// The daemon room: the schedule, one cycle at a time, the host lock, the phase for status and metrics.
export { runDaemon, type DaemonOptions } from './daemon.js';
export { runOneCycle, recoverFromDeadDaemon, type ScheduleSettings, type WorkerDeps } from './cycle-runner.js';
export {
  acquireHostLock,
  waitForHostLock,
  processAlive,
  HostLockError,
  HostLockHeldError,
  HostLockRefusedError,
  HostLockUnreadableError,
  type HostLock,
  type LockOptions,
  type WaitForHostOptions,
} from './host-lock.js';
export { needsCatchUp, pollIntervalMs, startSchedule, ScheduleError, type Schedule } from './schedule.js';
export { startOutboxTimer, type OutboxTimer, type OutboxTimerDeps } from './outbox-timer.js';
export { StatusTracker, type DaemonStatusSnapshot } from './status-tracker.js';
