import { runCycle, type CycleDeps, type CycleOutcome } from './cycle.js';
import { type FleetMember } from './fleet.js';
import { stopStrayProcesses, type StrayScope } from '../server/index.js';
import { stopDeadBuilds } from '../compile/index.js';
import type { QueueStore, SessionStore } from '../store/index.js';
import type { Logger } from '../log/index.js';
import type { StatusTracker } from './status-tracker.js';

/** The schedule's cron expression and its time zone (schedule, schedule_timezone). */
export interface ScheduleSettings {
  cron: string;
  timezone: string;
}

export type WorkerDeps = Omit<CycleDeps, 'onPhase' | 'onWorkProgress'> & {
  status: StatusTracker;
  schedule: ScheduleSettings;
};

/** Where a dead daemon's leftovers are looked for: its sessions' folders, its server user, its builds' worktrees. */
export type RecoveryScope = StrayScope & { cacheDir: string };

/**
 * What a start finds of a daemon that died: its queue rows half-way go back one step (those of its slot it claimed,
 * and any whose claim lapsed: fleet.ts), and the processes of its
 * interrupted session (mysqld, sysbench) and of its cut-off build (cmake, make, the compilers) are stopped: exec
 * starts each in a process group of its own, so they outlive a SIGKILL. The session rows themselves were marked
 * interrupted when the store was opened.
 */
export async function recoverFromDeadDaemon(
  scope: RecoveryScope,
  store: QueueStore & SessionStore,
  log: Logger,
  fleet: FleetMember,
): Promise<void> {
  const { rebuilt, rebenchmarked } = await store.recoverQueue({
    slot: fleet.slot,
    claimant: fleet.hostName,
    now: new Date().toISOString(),
  });
  for (const row of rebuilt)
    log.warn({ tag: row.tag, upstream: row.upstream }, 'a build was cut off by a daemon that stopped: it starts again');
  for (const row of rebenchmarked)
    log.warn(
      { tag: row.tag, upstream: row.upstream },
      'a benchmark was cut off by a daemon that stopped: the session is redone',
    );
  await stopStrayProcesses(scope, store, log);
  for (const key of await stopDeadBuilds(scope.cacheDir, log))
    log.warn({ key }, 'the build a stopped daemon left running was stopped');
}

/** One cycle with its phases reported to the status; always ends in idle, whatever happened. */
export async function runOneCycle(deps: WorkerDeps): Promise<CycleOutcome> {
  const started = Date.now();
  try {
    const outcome = await runCycle({
      ...deps,
      onPhase: (phase, detail) => deps.status.setPhase(phase, detail),
      onWorkProgress: (work) => deps.status.setProgress(work),
    });
    deps.log.info({ ...outcome, seconds: (Date.now() - started) / 1000 }, 'cycle done');
    return outcome;
  } finally {
    await deps.status.setPhase('idle').catch(() => undefined);
  }
}
