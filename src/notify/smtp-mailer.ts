import { connect, Socket } from 'node:net';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Logger } from '../log/index.js';
import { PlaintextAuthRefusedError, SmtpDeadlineError } from './errors.js';
import type { Mailer, MailSettings, OutgoingMessage } from './mailer.js';
import { mailOptions } from './mail-options.js';
import { nodemailer } from './nodemailer.js';

/**
 * One connection per message: alerts are rare, and a pool would hold a socket to the server between them.
 * A login never goes over a connection without TLS unless smtp_allow_plaintext_auth says so, and one message never
 * takes longer than the timeout in all: nodemailer's timeouts are per idle gap, which a server that trickles a byte
 * at a time never reaches, so the mailer opens the socket itself and destroys it at the deadline or on abort.
 */
export function createSmtpMailer(settings: MailSettings, log: Logger): Mailer {
  const requireTLS = settings.smtpUser !== '' && !settings.smtpSecure && !settings.smtpAllowPlaintextAuth;
  // Only what identifies the server; the password never reaches a log line.
  const where = {
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    user: settings.smtpUser || undefined,
  };
  const running = new Set<Attempt>();
  let closed = false;
  return {
    kind: 'smtp',
    async send(message: OutgoingMessage, signal?: AbortSignal): Promise<string> {
      signal?.throwIfAborted();
      const attempt = startAttempt(settings, requireTLS, message);
      running.add(attempt);
      const deadline = new SmtpDeadlineError(settings.smtpHost, settings.smtpPort, settings.timeoutMs);
      try {
        const info = await bounded(attempt.sent, settings.timeoutMs, deadline, attempt.cut, signal).catch(
          (err: unknown) => {
            throw requireTLS && isStartTlsRefused(err)
              ? new PlaintextAuthRefusedError(settings.smtpHost, settings.smtpPort)
              : err;
          },
        );
        const rejected = info.rejected.map(String);
        const detail = rejected.length > 0 ? `${info.response}; rejected: ${rejected.join(', ')}` : info.response;
        log.debug(
          { ...where, id: message.id, messageId: info.messageId, response: info.response },
          'smtp server took the message',
        );
        return detail;
      } finally {
        running.delete(attempt);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      running.forEach((a) => a.cut());
    },
  };
}

interface Attempt {
  sent: Promise<SMTPTransport.SentMessageInfo>;
  /** Destroys the attempt's connection, and any it would open later. */
  cut(): void;
}

/** One message on its own transport and socket, so cutting it short never touches another. */
function startAttempt(settings: MailSettings, requireTLS: boolean, message: OutgoingMessage): Attempt {
  let socket: Socket | undefined;
  let stopped = false;
  const transport = nodemailer().createTransport({
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecure,
    ...(settings.smtpUser !== '' ? { auth: { user: settings.smtpUser, pass: settings.smtpPassword } } : {}),
    // STARTTLS is sent even when the server does not offer it, and a refusal ends the session before AUTH.
    requireTLS,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
    // nodemailer puts TLS on this socket itself when smtp_secure is set.
    getSocket: (_options: unknown, callback: (err: Error | null, socketOptions: { connection: Socket }) => void) => {
      if (stopped)
        return callback(new Error('the attempt was cut short before it connected'), { connection: new Socket() });
      socket = connect({ host: settings.smtpHost, port: settings.smtpPort });
      callback(null, { connection: socket });
    },
  });
  const sent = transport.sendMail(mailOptions(message));
  // The rejection after a cut is the bounded wait's to report; this keeps it from being unhandled.
  sent.catch(() => undefined);
  return {
    sent,
    cut: () => {
      stopped = true;
      // With an error, so nodemailer closes the session and clears its own timers (a plain close leaves them).
      socket?.destroy(new Error('cut short by qpswatch'));
      transport.close();
    },
  };
}

/** `work`, or a rejection at the deadline or on abort, after `stop` has cut the work's connection. */
function bounded<T>(work: Promise<T>, ms: number, deadline: Error, stop: () => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const give = (reason: unknown): void => {
      done();
      stop();
      reject(reason instanceof Error ? reason : new Error(String(reason)));
    };
    const onAbort = (): void => give(signal?.reason);
    const timer = setTimeout(() => give(deadline), ms);
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (err: unknown) => {
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** The server answered STARTTLS with an error (it has none); a failed TLS handshake after a yes carries no response. */
function isStartTlsRefused(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; command?: unknown; response?: unknown };
  return e.code === 'ETLS' && e.command === 'STARTTLS' && typeof e.response === 'string';
}
