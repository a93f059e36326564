import { join } from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { createMailer, deliverOutbox, type MailSettings } from '../notify/index.js';
import type { OutboxStore } from '../store/index.js';

export interface DeliverDeps {
  mail: MailSettings;
  store: OutboxStore;
  log: Logger;
  /** SIGTERM cuts the message being sent short; it stays due */
  signal?: AbortSignal;
}

export function mailSettings(config: Config): MailSettings {
  return {
    smtpHost: config.smtp_host,
    smtpPort: config.smtp_port,
    smtpSecure: config.smtp_secure,
    smtpUser: config.smtp_user,
    smtpPassword: config.smtp_password,
    smtpAllowPlaintextAuth: config.smtp_allow_plaintext_auth,
    outboxDir: config.outbox_dir !== '' ? config.outbox_dir : join(config.state_dir, 'outbox'),
    timeoutMs: config.smtp_timeout_seconds * 1000,
  };
}

/**
 * Sends the messages of the outbox that are due (all pending ones with `now`: a person asked). A mail server that
 * is down is not an error here: the message stays queued with its next attempt, and the log says so.
 */
export function deliverPending(
  deps: DeliverDeps,
  options: { now?: boolean } = {},
): Promise<{ delivered: number; failed: number }> {
  // One delivery at a time in this process (a check's, the cycle's and the daemon's outbox timer), so its log reads
  // in order; across processes and hosts, takeDueMessages leases each message to one sender.
  const turn = lastDelivery.then(() => deliverNow(deps, options));
  lastDelivery = turn.catch(() => undefined);
  return turn;
}

let lastDelivery: Promise<unknown> = Promise.resolve();

async function deliverNow(
  deps: DeliverDeps,
  options: { now?: boolean },
): Promise<{ delivered: number; failed: number }> {
  const log = deps.log.child({ component: 'outbox' });
  const mailer = createMailer(deps.mail, log);
  try {
    const port = {
      takeDueMessages: (now: string, limit: number, leaseUntil: string) =>
        deps.store.takeDueMessages(options.now === true ? '9999-12-31T23:59:59.999Z' : now, limit, leaseUntil),
      returnMessage: (id: number, at: string) => deps.store.returnMessage(id, at),
      markMessageSent: (id: number, detail: string, at: string) => deps.store.markMessageSent(id, detail, at),
      markMessageFailed: (id: number, error: string, next: string) => deps.store.markMessageFailed(id, error, next),
    };
    return await deliverOutbox(port, mailer, { log, signal: deps.signal });
  } finally {
    await mailer.close();
  }
}
