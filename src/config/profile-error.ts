import { InputError } from '../errors.js';
import { showValue } from './describe-issues.js';

/**
 * A profile file (build or server) that cannot be used; `field` is a dotted path inside the file. Each room names
 * its own subclass (BuildProfileError, ServerProfileError) and sets `profileKind`, which starts the message.
 */
export class ProfileError extends InputError {
  static readonly profileKind: string = 'profile';

  constructor(
    readonly file: string,
    readonly field: string,
    readonly value: unknown,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${new.target.profileKind} ${file}: ${field || '(top level)'} = ${showValue(value, 80)}: ${problem}; ${fix}`);
    this.name = new.target.name;
  }
}
