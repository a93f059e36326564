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

/** A binary tarball whose file name does not say flavor and version. */
export class TarballNameError extends InputError {
  constructor(
    readonly file: string,
    readonly problem: string,
    fix = 'use an official binary tarball name such as mariadb-10.11.9-linux-systemd-x86_64.tar.gz, ' +
      'mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz or Percona-Server-8.0.36-28-Linux.x86_64.glibc2.35.tar.gz',
  ) {
    super(`tarball ${file}: ${problem}; ${fix}`);
    this.name = new.target.name;
  }
}
