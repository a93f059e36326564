/**
 * Base of the errors that mean "the input is wrong": a name that is not there, a file that does not parse, a value out
 * of range. Rooms extend it; the CLI answers with the message alone and exit code 2, never a stack.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
