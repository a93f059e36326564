import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import { ensureTrustedFolder, writeFileSafely } from '../trust/index.js';
import { mailOptions } from './mail-options.js';
import type { Mailer, MailSettings, OutgoingMessage } from './mailer.js';
import { nodemailer } from './nodemailer.js';

const SLUG_LENGTH = 60;

/**
 * A file name part from a subject: lower case words of letters and digits joined by dashes, whole words up to 60
 * characters, so no subject can name a path and names stay readable.
 */
export function subjectSlug(subject: string): string {
  const words = subject
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let slug = '';
  for (const word of words) {
    const longer = slug === '' ? word : `${slug}-${word}`;
    if (longer.length > SLUG_LENGTH) break;
    slug = longer;
  }
  // One word longer than the limit is cut rather than dropped.
  if (slug === '' && words[0] !== undefined) slug = words[0].slice(0, SLUG_LENGTH);
  return slug === '' ? 'message' : slug;
}

export function emlFileName(message: Pick<OutgoingMessage, 'id' | 'subject'>): string {
  return `${message.id}-${subjectSlug(message.subject)}.eml`;
}

/** A transport that renders a message to bytes (CRLF line ends) instead of sending it. */
const streamTransport = () => nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/**
 * Writes each message as an RFC 822 file (CRLF line ends) into the outbox folder. The file appears whole or not at
 * all (written beside, then renamed), and sending the same message again replaces it.
 */
export function createEmlMailer(settings: MailSettings, log: Logger): Mailer {
  let transport: ReturnType<typeof streamTransport> | undefined;
  return {
    kind: 'eml',
    async send(message: OutgoingMessage): Promise<string> {
      transport ??= streamTransport();
      const info = await transport.sendMail(mailOptions(message));
      if (!Buffer.isBuffer(info.message))
        throw new TypeError('nodemailer stream transport gave a stream although buffer was asked for');
      ensureTrustedFolder(settings.outboxDir, { what: 'outbox_dir', elsewhere: 'choose another outbox_dir' });
      const path = join(settings.outboxDir, emlFileName(message));
      writeFileSafely(path, info.message, 0o640, { what: 'outbox_dir', elsewhere: 'choose another outbox_dir' });
      log.info({ id: message.id, path }, 'message written to the outbox folder');
      return path;
    },
    async close(): Promise<void> {
      transport?.close();
    },
  };
}
