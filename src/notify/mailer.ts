import type { Logger } from '../log/index.js';
import { createEmlMailer } from './eml-mailer.js';
import { MailSettingsError } from './errors.js';
import { createSmtpMailer } from './smtp-mailer.js';

/** One message as the outbox holds it; `messageId` is fixed when the message is queued, so a resend keeps it. */
export interface OutgoingMessage {
  id: number;
  from: string;
  to: readonly string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

export type MailerKind = 'smtp' | 'eml';

export interface Mailer {
  readonly kind: MailerKind;
  /**
   * Resolves to a detail worth keeping: the SMTP server's response, or the path of the .eml file. An abort of
   * `signal` (SIGTERM) cuts the attempt short and rejects with the signal's reason.
   */
  send(message: OutgoingMessage, signal?: AbortSignal): Promise<string>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface MailSettings {
  /** '' keeps messages as .eml files in outboxDir instead of sending them */
  smtpHost: string;
  smtpPort: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it, and required for a login */
  smtpSecure: boolean;
  /** '' sends without AUTH */
  smtpUser: string;
  smtpPassword: string;
  /** a login may go over a connection without TLS (a relay on this host); false refuses it before the password is sent */
  smtpAllowPlaintextAuth: boolean;
  outboxDir: string;
  /** the most one message may take, from connecting to the last answer */
  timeoutMs: number;
}

const MAILERS = {
  smtp: createSmtpMailer,
  eml: createEmlMailer,
} as const satisfies Record<MailerKind, (settings: MailSettings, log: Logger) => Mailer>;

export function mailerKind(settings: Pick<MailSettings, 'smtpHost'>): MailerKind {
  return settings.smtpHost === '' ? 'eml' : 'smtp';
}

/** SMTP when a host is set; otherwise .eml files, so a host without a mail server still keeps every alert. */
export function createMailer(settings: MailSettings, log: Logger): Mailer {
  checkSettings(settings);
  const kind = mailerKind(settings);
  return MAILERS[kind](settings, log.child({ mailer: kind }));
}

function checkSettings(settings: MailSettings): void {
  const kind = mailerKind(settings);
  if (kind === 'eml' && settings.outboxDir === '') {
    throw new MailSettingsError('outboxDir', settings.outboxDir, 'with no SMTP host, messages are written to the outbox folder: set an SMTP host or an outbox folder');
  }
  if (kind === 'smtp' && !(Number.isInteger(settings.smtpPort) && settings.smtpPort > 0 && settings.smtpPort < 65536)) {
    throw new MailSettingsError('smtpPort', settings.smtpPort, 'use a TCP port between 1 and 65535 (587 for STARTTLS, 465 for TLS, 25)');
  }
  if (!(Number.isFinite(settings.timeoutMs) && settings.timeoutMs > 0)) {
    throw new MailSettingsError('timeoutMs', settings.timeoutMs, 'use a number of milliseconds above 0, e.g. 30000');
  }
}
