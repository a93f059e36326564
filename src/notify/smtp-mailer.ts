import { createTransport } from 'nodemailer';
import type { Logger } from '../log/index.js';
import type { Mailer, MailSettings, OutgoingMessage } from './mailer.js';
import { mailOptions } from './mail-options.js';

/** One connection per message: alerts are rare, and a pool would hold a socket to the server between them. */
export function createSmtpMailer(settings: MailSettings, log: Logger): Mailer {
  const transport = createTransport({
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    ...(settings.smtpUser !== '' ? { auth: { user: settings.smtpUser, pass: settings.smtpPassword } } : {}),
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    // Idle time on an open connection; longer than the greeting's, so a silent server is reported as such
    // ("Greeting never received") rather than as a bare "Timeout".
    socketTimeout: 2 * settings.timeoutMs,
  });
  // Only what identifies the server; the password never reaches a log line.
  const where = { host: settings.smtpHost, port: settings.smtpPort, secure: settings.smtpSecure, user: settings.smtpUser || undefined };
  let closed = false;
  return {
    kind: 'smtp',
    async send(message: OutgoingMessage): Promise<string> {
      const info = await transport.sendMail(mailOptions(message));
      const rejected = info.rejected.map(String);
      const detail = rejected.length > 0 ? `${info.response}; rejected: ${rejected.join(', ')}` : info.response;
      log.debug({ ...where, id: message.id, messageId: info.messageId, response: info.response }, 'smtp server took the message');
      return detail;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      transport.close();
    },
  };
}
