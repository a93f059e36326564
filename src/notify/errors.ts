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
