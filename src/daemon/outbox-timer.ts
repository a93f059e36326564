import type { Logger } from '../log/index.js';
import type { MailSettings } from '../notify/index.js';
import { deliverPending } from '../checks/index.js';
import type { OutboxStore } from '../store/index.js';

export interface OutboxTimerDeps {
  mail: MailSettings;
  store: OutboxStore;
  log: Logger;
  /** SIGTERM: the timer stops and a message being sent is cut short (it stays due) */
  signal: AbortSignal;
  /** The longest sleep: messages a cycle queues meanwhile are found at the latest this late. */
  maxSleepMs?: number;
  now?: () => number;
}

export interface OutboxTimer {
  /** Look again when the next message is due (a cycle ended and may have queued or failed some). */
  poke(): void;
  /** Idempotent; waits for a delivery under way, which the signal has cut short. */
  stop(): Promise<void>;
}

const MAX_SLEEP_MS = 30_000;

/**
 * Sends the outbox on its own schedule in the daemon: it wakes at the earliest next attempt of a pending message
 * (30 s doubling to 1 h after failures, see notify/outbox.ts), at most `maxSleepMs` apart, so a mail server that
 * was down is tried again on time and not only at the next cycle. One delivery at a time: the timer skips while
 * its own runs, and checks' deliverPending puts it after a check's or a cycle's.
 */
export function startOutboxTimer(deps: OutboxTimerDeps): OutboxTimer {
  const now = deps.now ?? Date.now;
  const maxSleep = deps.maxSleepMs ?? MAX_SLEEP_MS;
  const log = deps.log.child({ component: 'outbox-timer' });
  let timer: NodeJS.Timeout | undefined;
  let delivering: Promise<void> | undefined;
  let stopped = false;

  const arm = async (): Promise<void> => {
    const next = await deps.store.nextMessageDue().catch((err: unknown) => {
      log.warn(
        { error: err instanceof Error ? err.message : String(err) },
        'the outbox could not be read; looking again later',
      );
      return null;
    });
    if (stopped || deps.signal.aborted) return;
    const wait = next === null ? maxSleep : Math.min(maxSleep, Math.max(0, Date.parse(next) - now()));
    clearTimeout(timer);
    timer = setTimeout(fire, Number.isNaN(wait) ? maxSleep : wait);
  };

  const fire = (): void => {
    timer = undefined;
    if (stopped || delivering !== undefined) return;
    delivering = deliverDue()
      .catch((err: unknown) =>
        log.error(
          { error: err instanceof Error ? err.message : String(err) },
          'the outbox could not be sent; it is tried again at its next attempt',
        ),
      )
      .finally(() => {
        delivering = undefined;
        if (!stopped) void arm();
      });
  };

  const deliverDue = async (): Promise<void> => {
    const due = await deps.store.nextMessageDue();
    if (due === null || Date.parse(due) > now()) return;
    const result = await deliverPending({ mail: deps.mail, store: deps.store, log: deps.log, signal: deps.signal });
    if (result.delivered + result.failed > 0) log.info(result, 'outbox sent between cycles');
  };

  void arm();
  return {
    poke: () => {
      if (!stopped) void arm();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await delivering;
    },
  };
}
