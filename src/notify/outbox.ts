import type { Logger } from '../log/index.js';
import { describeAttemptError } from './attempt-error.js';
import type { Mailer, OutgoingMessage } from './mailer.js';

export interface OutboxEntry extends OutgoingMessage {
  /** failed attempts so far */
  attempts: number;
}

/**
 * What delivery needs from the store. The notify room sits below the store, so it names the port and the pipeline
 * hands the store in. Timestamps are ISO 8601 strings in UTC.
 */
export interface OutboxPort {
  /** pending messages whose next attempt is at or before `now`, oldest first */
  dueMessages(now: string, limit: number): Promise<OutboxEntry[]>;
  markMessageSent(id: number, detail: string, at: string): Promise<void>;
  markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void>;
}

export interface DeliverOptions {
  now?: () => Date;
  log: Logger;
  /** messages taken per call; the rest wait for the next one */
  limit?: number;
  /** SIGTERM: the message being sent is cut short and stays due (not counted as an attempt), the rest wait */
  signal?: AbortSignal;
}

export interface DeliveryResult {
  delivered: number;
  failed: number;
}

const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 3600;
const DEFAULT_LIMIT = 20;

/**
 * Wait after the n-th failed attempt: 30 s, doubling, at most an hour, so a mail server down for a day costs ~30 tries.
 */
export function retryDelaySeconds(attempts: number): number {
  const n = Math.max(1, Math.floor(attempts));
  // Past 2^7 the cap holds anyway; the bound keeps the power finite for absurd counts.
  return Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.min(n - 1, 16));
}

/**
 * Sends the messages that are due, one at a time. A failure is recorded on its message with the time of the next
 * attempt and does not stop the others; a failure of the port itself (the store) is not the mailer's and propagates.
 */
export async function deliverOutbox(port: OutboxPort, mailer: Mailer, opts: DeliverOptions): Promise<DeliveryResult> {
  const now = opts.now ?? (() => new Date());
  const due = await port.dueMessages(now().toISOString(), opts.limit ?? DEFAULT_LIMIT);
  const result: DeliveryResult = { delivered: 0, failed: 0 };
  const aborted = (): boolean => opts.signal?.aborted === true;
  for (const entry of due) {
    if (aborted()) break;
    const outcome = await attempt(mailer, entry, opts.signal);
    if (!outcome.ok && aborted()) break;
    if (outcome.ok) {
      await port.markMessageSent(entry.id, outcome.detail, now().toISOString());
      opts.log.info({ id: entry.id, mailer: mailer.kind, detail: outcome.detail }, 'message delivered');
      result.delivered += 1;
    } else {
      const attempts = entry.attempts + 1;
      const next = new Date(now().getTime() + retryDelaySeconds(attempts) * 1000).toISOString();
      await port.markMessageFailed(entry.id, outcome.error, next);
      opts.log.warn(
        { id: entry.id, mailer: mailer.kind, attempts, error: outcome.error, nextAttemptAt: next },
        'message not delivered, will retry',
      );
      result.failed += 1;
    }
  }
  return result;
}

type Outcome = { ok: true; detail: string } | { ok: false; error: string };

async function attempt(mailer: Mailer, entry: OutboxEntry, signal: AbortSignal | undefined): Promise<Outcome> {
  try {
    return { ok: true, detail: await mailer.send(entry, signal) };
  } catch (err) {
    return { ok: false, error: describeAttemptError(err) };
  }
}
