import type { Logger } from '../log/index.js';
import { createEmlMailer } from './eml-mailer.js';
import { MailSettingsError } from './errors.js';
import type { Mailer, MailerKind, MailSettings } from './mailer.js';
import { createSmtpMailer } from './smtp-mailer.js';

/** The transports by kind: a new one is its file and one line here. */
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
    throw new MailSettingsError(
      'outboxDir',
      settings.outboxDir,
      'with no SMTP host, messages are written to the outbox folder: set an SMTP host or an outbox folder',
    );
  }
  if (kind === 'smtp' && !(Number.isInteger(settings.smtpPort) && settings.smtpPort > 0 && settings.smtpPort < 65536)) {
    throw new MailSettingsError(
      'smtpPort',
      settings.smtpPort,
      'use a TCP port between 1 and 65535 (587 for STARTTLS, 465 for TLS, 25)',
    );
  }
  if (!(Number.isFinite(settings.timeoutMs) && settings.timeoutMs > 0)) {
    throw new MailSettingsError('timeoutMs', settings.timeoutMs, 'use a number of milliseconds above 0, e.g. 30000');
  }
}
