// The daemon room: the schedule, one cycle at a time (discover, build, check, prune; a fleet's queue and claims;
// retries and the quiet-host wait), the host lock, the phase for status and metrics.
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
export { cycleSettings, type CycleSettings } from './cycle-settings.js';
export { runCycle, type CycleDeps, type CycleOutcome, type PhaseDetail } from './cycle.js';
export { fleetSettings, joinFleet, slotOf, type FleetMember, type FleetSettings } from './fleet.js';
export { waitForQuietHost, quietHostSettings, type QuietHostSettings, type QuietHostWait } from './quiet-host-wait.js';
export {
  selectPrune,
  pruneBuilds,
  pruneAfterCheck,
  type PruneSelection,
  type PrunedBuild,
  type PruneKeepReason,
} from './prune-builds.js';
