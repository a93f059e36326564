import { InputError } from '../errors.js';

/** A mail setting that cannot work; names the setting, its value and the fix. Never carries the password. */
export class MailSettingsError extends InputError {
  constructor(
    readonly setting: string,
    readonly value: unknown,
    readonly fix: string,
  ) {
    super(`mail setting ${setting} = ${JSON.stringify(value)} cannot work: ${fix}`);
    this.name = new.target.name;
  }
}

/** The alert given to renderAlert does not fit its comparison (a bug of the caller, not bad input). */
export class InvalidAlertError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`alert ${field}: ${reason}`);
    this.name = new.target.name;
  }
}

/**
 * A login was configured, the connection has no TLS and the server offers no STARTTLS: the password would cross
 * the network in clear text, so nothing was sent. One line that names the option that allows it anyway.
 */
export class PlaintextAuthRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(
      `SMTP server ${host}:${port} offers no STARTTLS, so the login ` +
        `(smtp_user) would cross the network in plain text and was not sent: ` +
        ('use smtp_secure: true or a server with STARTTLS, or set ' +
          'smtp_allow_plaintext_auth: true for a relay on this host'),
    );
    this.name = new.target.name;
  }
}

/**
 * One message took longer than smtp_timeout_seconds from connecting to the last answer (e.g. a server that trickles
 * bytes).
 */
export class SmtpDeadlineError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly timeoutMs: number,
  ) {
    super(
      `SMTP server ${host}:${port} did not take the message within ` +
        `smtp_timeout_seconds (${timeoutMs / 1000} s); it is tried again later`,
    );
    this.name = new.target.name;
  }
}
