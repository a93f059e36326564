import { InputError } from '../errors.js';
/** Text that is not a MySQL-family version. */
export class VersionParseError extends InputError {
  constructor(
    readonly text: string,
    readonly expected: string,
  ) {
    super(`version "${text}" is not a MySQL-family version: expected ${expected}`);
    this.name = new.target.name;
  }
}

/** Text that is not a version range; `part` is the piece that failed. */
export class VersionRangeError extends InputError {
  constructor(
    readonly text: string,
    readonly part: string,
    readonly reason: string,
  ) {
    super(
      `version range "${text}" is not valid: ${reason} (at "${part}"); expected comparators >=, >, <=, <, = ` +
        `followed by a version or a series, separated by spaces, e.g. ">=8.0.30 <8.1" or "10.11"`,
    );
    this.name = new.target.name;
  }
}

/** A flavor name that qpswatch does not know. */
export class UnknownFlavorError extends InputError {
  constructor(
    readonly text: string,
    readonly valid: readonly string[],
  ) {
    super(`flavor "${text}" is not known: must be one of ${valid.join(', ')}`);
    this.name = new.target.name;
  }
}
