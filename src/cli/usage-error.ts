import { InputError } from '../errors.js';

/** The command line itself is wrong: an unknown flag, a missing argument, a value of the wrong form. */
export class UsageError extends InputError {
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message);
  }
}
