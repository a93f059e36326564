import { InputError } from '../errors.js';
/** A report format name that no renderer answers to. */
export class UnknownReportFormatError extends InputError {
  constructor(
    readonly format: string,
    readonly valid: readonly string[],
  ) {
    super(`report format "${format}" is not known: use one of ${valid.join(', ')}`);
    this.name = new.target.name;
  }
}

/** The data given to a renderer is garbage (NaN, Infinity, min above max...); the path names the field. */
export class InvalidReportDataError extends Error {
  constructor(
    readonly path: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`report data ${path} = ${String(value)} is invalid: ${reason}`);
    this.name = new.target.name;
  }
}
