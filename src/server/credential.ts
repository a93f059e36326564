import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const HIDDEN = 'ServerCredential(root@localhost, password hidden)';

/**
 * The password qpswatch gives the benchmarked server's root@localhost for one session (random, 192 bits, hex so it
 * needs no quoting in SQL or option files). Logging, JSON, string conversion and inspect show no secret; only
 * reveal() does, for the connection and the client's option file.
 */
export class ServerCredential {
  readonly user = 'root';
  readonly host = 'localhost';
  readonly #password: string;

  private constructor(password: string) {
    this.#password = password;
  }

  static random(): ServerCredential {
    return new ServerCredential(randomBytes(24).toString('hex'));
  }

  /** For tests that must reach the server as a client would. */
  static of(password: string): ServerCredential {
    return new ServerCredential(password);
  }

  reveal(): string {
    return this.#password;
  }

  /** Replaces every occurrence of the password in text from elsewhere (a driver's error message). */
  scrub(text: string): string {
    return text.split(this.#password).join('***');
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [inspect.custom](): string {
    return HIDDEN;
  }
}
