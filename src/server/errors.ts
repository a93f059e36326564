import { summarizeLogErrors } from './log-tail.js';
import { ProfileError } from '../config/index.js';
import { InputError } from '../errors.js';
import { printable } from '../report/index.js';

/**
 * What the server wrote, as a message may quote it: server output is data, and an error log line or a --version
 * answer with an escape sequence or a newline must not reach a terminal or break a one-line message.
 */
function serverSaid(logErrors: readonly string[]): string {
  return printable(summarizeLogErrors(logErrors));
}
/** A server config profile file that cannot be used; `field` is a dotted path inside the file. */
export class ServerProfileError extends ProfileError {
  static override readonly profileKind = 'server profile';
}

/** No server binary where the target said it would be. */
export class ServerBinaryMissingError extends InputError {
  constructor(
    readonly what: string,
    readonly tried: readonly string[],
  ) {
    super(
      `${what} not found; tried ${tried.join(', ')}: install the server package or fix the target's basedir ` +
        `(an install prefix holding bin/ or sbin/, or the path of the server binary itself)`,
    );
    this.name = new.target.name;
  }
}

/** `mysqld --version` said something that is not a version line, or a flavor other than the target's. */
export class ServerVersionError extends Error {
  constructor(
    readonly mysqld: string,
    readonly output: string,
    readonly problem: string,
  ) {
    super(`${mysqld} --version: ${problem} (output: "${printable(output.trim().slice(0, 200))}")`);
    this.name = new.target.name;
  }
}

/** A unix socket path longer than the kernel accepts (sun_path holds 107 bytes and a NUL). */
export class SocketPathTooLongError extends InputError {
  constructor(
    readonly socket: string,
    readonly limit: number,
  ) {
    super(
      `socket path is ${Buffer.byteLength(socket)} bytes, longer than the unix limit of ${limit}: ${socket}; ` +
        `use a shorter state directory`,
    );
    this.name = new.target.name;
  }
}

/** Something already answers on the socket path: another server is running there. */
export class SocketInUseError extends InputError {
  constructor(readonly socket: string) {
    super(
      `a server already answers on socket ${socket}: stop that server (mariadb-admin --socket=${socket} shutdown) ` +
        `or give this target another state directory`,
    );
    this.name = new.target.name;
  }
}

/** The TCP port in the config is taken. */
export class PortInUseError extends InputError {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`TCP port ${port} on ${host} is already in use: stop what listens there or configure another port`);
    this.name = new.target.name;
  }
}

/** The server did not become ready: it exited, or did not answer in time. */
export class ServerStartError extends Error {
  constructor(
    readonly reason: 'exited' | 'timeout' | 'no-datadir',
    readonly logErrors: readonly string[],
    readonly errorLog: string,
    detail: string,
    /** The process that failed, already gone; undefined when none was started. */
    readonly pid?: number,
  ) {
    const lines = logErrors.length > 0 ? `: ${serverSaid(logErrors)}` : '';
    super(`server did not start (${detail})${lines}; see ${errorLog}`);
    this.name = new.target.name;
  }
}

/** The server binary refuses the options of a my.cnf (unknown variable, bad value). */
export class ServerOptionsError extends InputError {
  constructor(
    readonly myCnfPath: string,
    readonly logErrors: readonly string[],
  ) {
    super(
      `the server refuses ${myCnfPath}: ${serverSaid(logErrors)}: ` +
        `remove the option from the server profile, or add an override that removes or renames it for this version`,
    );
    this.name = new.target.name;
  }
}

/** A datadir could not be created. */
export class DatadirInitError extends Error {
  constructor(
    readonly datadir: string,
    readonly logErrors: readonly string[],
    readonly logFile: string,
    detail: string,
  ) {
    super(`datadir ${datadir} could not be initialised: ${detail}: ${serverSaid(logErrors)}; see ${logFile}`);
    this.name = new.target.name;
  }
}

/** Init found an old datadir: rounds never reuse data by accident. */
export class DatadirNotEmptyError extends InputError {
  constructor(
    readonly datadir: string,
    readonly entries: readonly string[],
  ) {
    super(
      `datadir ${datadir} is not empty ` +
        `(${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}): ` +
        `init needs a fresh one; remove it first`,
    );
    this.name = new.target.name;
  }
}

/** The server ended while something depended on it: killed, crashed or shut down from outside. */
export class ServerDiedError extends Error {
  constructor(
    readonly pid: number,
    readonly exit: { exitCode: number | null; signal: NodeJS.Signals | null },
    readonly logErrors: readonly string[],
    readonly errorLog: string,
  ) {
    const how = exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`;
    const lines = logErrors.length > 0 ? `: ${serverSaid(logErrors)}` : '';
    super(`the server (pid ${pid}) died during the run, ${how}${lines}; see ${errorLog}`);
    this.name = new.target.name;
  }
}

/** server_user names no usable account, or the account cannot reach the server's files. */
export class ServerUserError extends InputError {
  constructor(
    readonly user: string,
    problem: string,
  ) {
    super(`server_user ${user} ${problem}`);
    this.name = new.target.name;
  }
}

/** Setting the per-session password or removing the install's extra accounts failed; the statement is never quoted. */
export class ServerCredentialError extends Error {
  constructor(
    readonly code: string | undefined,
    detail: string,
  ) {
    super(`could not give the server's root account its session password: ${detail}`);
    this.name = new.target.name;
  }
}

/**
 * A folder on the way to qpswatch's own, or one of them, that it will not use: a symbolic link another user made, a
 * file where a folder should be, or a folder that exists already and belongs to another user (made beforehand, to
 * reach the server's files). Nothing was changed.
 */
export class UnsafeFolderError extends InputError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}
