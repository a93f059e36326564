import { runOneCycle, type WorkerDeps } from './cycle-runner.js';
import { startOutboxTimer } from './outbox-timer.js';
import { needsCatchUp, pollIntervalMs, startSchedule } from './schedule.js';

export interface DaemonOptions {
  now?: () => number;
  /** The outbox timer's longest sleep (tests). */
  outboxMaxSleepMs?: number;
}

/**
 * Runs cycles on the config's schedule, one at a time, until the signal aborts; a start after a missed poll runs a
 * catch-up cycle at once. The outbox is sent between cycles when its messages are due (outbox-timer.ts). Resolves when
 * the running cycle (if any) has stopped its children and recorded itself.
 */
export async function runDaemon(deps: WorkerDeps, opts: DaemonOptions = {}): Promise<void> {
  const { schedule: when, store, log, signal, status } = deps;
  const now = opts.now ?? Date.now;
  const intervalMs = pollIntervalMs(when.cron, when.timezone);
  let running: Promise<void> | undefined;
  const cycle = (reason: string): Promise<void> => {
    if (running !== undefined) {
      log.info({ reason }, 'a cycle is still running: this poll is skipped');
      return running;
    }
    log.info({ reason }, 'cycle starts');
    running = runOneCycle(deps)
      .then(() => undefined)
      .catch((err: unknown) => {
        // Stopped on purpose: the cycle has recorded itself (session interrupted, queue row one step back).
        if (signal.aborted) return;
        log.error(
          { error: err instanceof Error ? err.message : String(err) },
          'cycle failed; the next one runs on schedule',
        );
      })
      .finally(() => {
        running = undefined;
        status.setSchedule(intervalMs / 1000, schedule.nextRun());
        outbox.poke();
      });
    return running;
  };
  // Between cycles (which can last hours) the outbox is sent on its own schedule, as its backoff says.
  const outbox = startOutboxTimer({
    mail: deps.settings.mail,
    store,
    log,
    signal,
    ...(opts.outboxMaxSleepMs !== undefined ? { maxSleepMs: opts.outboxMaxSleepMs } : {}),
  });
  const schedule = startSchedule(when.cron, when.timezone, () => cycle('schedule'), log);
  status.setSchedule(intervalMs / 1000, schedule.nextRun());
  await status.setPhase('idle');
  const { lastPollAt } = await store.getDaemonState(deps.fleet.hostName);
  log.info(
    {
      schedule: when.cron,
      timezone: when.timezone,
      intervalSeconds: intervalMs / 1000,
      lastPollAt,
      nextPoll: schedule.nextRun(),
    },
    'daemon started',
  );
  if (needsCatchUp(lastPollAt, now(), intervalMs))
    void cycle(
      lastPollAt === null ? 'first start' : `catch-up: the last poll (${lastPollAt}) is older than one interval`,
    );
  await abortedSignal(signal);
  const stopping = Date.now();
  log.info('stopping: the running cycle stops its children');
  await schedule.stop();
  await Promise.all([running, outbox.stop()]);
  await status.stopped();
  log.info({ seconds: (Date.now() - stopping) / 1000 }, 'daemon stopped');
}

function abortedSignal(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
