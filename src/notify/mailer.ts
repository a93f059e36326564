/** The contract every mail transport implements; create-mailer.ts holds the map of implementations. */

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
  /**
   * a login may go over a connection without TLS (a relay on this host); false refuses it before the password is sent
   */
  smtpAllowPlaintextAuth: boolean;
  outboxDir: string;
  /** the most one message may take, from connecting to the last answer */
  timeoutMs: number;
}
