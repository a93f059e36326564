import cron, { type Logger as CronLogger } from 'node-cron';
import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';

/** The config checks the schedule when it loads; this guards callers that build one another way. */
export class ScheduleError extends InputError {
  constructor(
    readonly expression: string,
    readonly timezone: string,
  ) {
    super(
      `schedule ${JSON.stringify(expression)} in time zone ` +
        `${JSON.stringify(timezone)} never fires: use a cron expression such as ` +
        `"17 * * * *"`,
    );
  }
}

/**
 * The time between two polls: the distance between the schedule's next two runs. For an irregular schedule (weekdays
 * only) this is the interval of the moment, which is what "the daemon missed a poll" needs.
 */
export function pollIntervalMs(expression: string, timezone: string): number {
  const task = cron.createTask(expression, () => undefined, { timezone });
  try {
    const [a, b] = task.getNextRuns(2);
    if (a === undefined || b === undefined) throw new ScheduleError(expression, timezone);
    return b.getTime() - a.getTime();
  } finally {
    void task.destroy();
  }
}

/**
 * node-cron does not run what it missed while the daemon was down, so the daemon asks this at start: a last poll
 * older than one interval (or none at all) means a poll is due now.
 */
export function needsCatchUp(lastPollAt: string | null, nowMs: number, intervalMs: number): boolean {
  if (lastPollAt === null) return true;
  const last = Date.parse(lastPollAt);
  return Number.isNaN(last) || nowMs - last >= intervalMs;
}

export interface Schedule {
  /** The next time the schedule fires, or null once stopped. */
  nextRun(): Date | null;
  stop(): Promise<void>;
}

/** Calls `tick` on the schedule; node-cron skips a tick while the previous one still runs (noOverlap). */
export function startSchedule(expression: string, timezone: string, tick: () => Promise<void>, log: Logger): Schedule {
  const task = cron.schedule(expression, tick, {
    timezone,
    noOverlap: true,
    name: 'qpswatch-poll',
    logger: cronLogger(log),
  });
  let stopped = false;
  return {
    nextRun: () => (stopped ? null : task.getNextRun()),
    async stop() {
      if (stopped) return;
      stopped = true;
      await task.destroy();
    },
  };
}

/** node-cron writes to the console by default; its lines go to the daemon's log instead (JSON under systemd). */
function cronLogger(log: Logger): CronLogger {
  const text = (m: string | Error) => (m instanceof Error ? m.message : m);
  return {
    debug: (m) => log.debug(text(m)),
    info: (m) => log.debug(m),
    // A poll that comes while a cycle still runs is expected (a build and a session can outlast an hour).
    warn: (m) => (/overlap/.test(m) ? log.info('a cycle is still running: this poll is skipped') : log.warn(m)),
    error: (m, err) => log.error({ error: err?.message }, text(m)),
  };
}
