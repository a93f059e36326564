import { InputError } from '../errors.js';

/**
 * A config that cannot be used. Each problem is one line naming the source, the field, the value and what is expected.
 */
export class ConfigError extends InputError {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}
