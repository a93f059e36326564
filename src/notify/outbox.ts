import type { Logger } from '../log/index.js';
import { describeAttemptError } from './attempt-error.js';
import type { Mailer, OutgoingMessage } from './mailer.js';

export interface OutboxEntry extends OutgoingMessage {
  /** failed attempts so far */
  attempts: number;
}

/**
 * What delivery needs from the store. The notify room sits below the store, so it names the port and checks/
 * (deliver.ts) hands the store in. Timestamps are ISO 8601 strings in UTC.
 */
export interface OutboxPort {
  /**
   * pending messages whose next attempt is at or before `now`, oldest first, taken for this sender: due to no other
   * until `leaseUntil`
   */
  takeDueMessages(now: string, limit: number, leaseUntil: string): Promise<OutboxEntry[]>;
  /** a taken message not attempted: due again at `at`, no attempt counted */
  returnMessage(id: number, at: string): Promise<void>;
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
 * How long taken messages are another sender's to leave alone: more than a batch of sends at the SMTP timeout takes
 * here, so a live sender is never overtaken, and a dead one's messages are due again within minutes.
 */
const LEASE_SECONDS = 15 * 60;

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
  const leaseUntil = new Date(now().getTime() + LEASE_SECONDS * 1000).toISOString();
  const due = await port.takeDueMessages(now().toISOString(), opts.limit ?? DEFAULT_LIMIT, leaseUntil);
  const result: DeliveryResult = { delivered: 0, failed: 0 };
  const aborted = (): boolean => opts.signal?.aborted === true;
  for (const [i, entry] of due.entries()) {
    if (aborted()) {
      await returnAll(port, due.slice(i), now());
      break;
    }
    const outcome = await attempt(mailer, entry, opts.signal);
    if (!outcome.ok && aborted()) {
      await returnAll(port, due.slice(i), now());
      break;
    }
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

/** Stopped: what was taken and not attempted is due again now, as if never taken. */
async function returnAll(port: OutboxPort, entries: readonly OutboxEntry[], at: Date): Promise<void> {
  for (const entry of entries) await port.returnMessage(entry.id, at.toISOString());
}

type Outcome = { ok: true; detail: string } | { ok: false; error: string };

async function attempt(mailer: Mailer, entry: OutboxEntry, signal: AbortSignal | undefined): Promise<Outcome> {
  try {
    return { ok: true, detail: await mailer.send(entry, signal) };
  } catch (err) {
    return { ok: false, error: describeAttemptError(err) };
  }
}
