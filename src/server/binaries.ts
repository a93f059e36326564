import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { checkTrustedFile } from '../trust/index.js';
import { basename, dirname, join, resolve } from 'node:path';
import { run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { compareVersions, parseVersion, VersionParseError, type Flavor, type Version } from '../version/index.js';
import { ServerBinaryMissingError, ServerVersionError } from './errors.js';

/** The programs of one server installation. */
export interface ServerBinaries {
  readonly flavor: Flavor;
  /** The install prefix: passed as --basedir so a moved tarball still finds its share/ and plugins. */
  readonly basedir: string;
  readonly mysqld: string;
  /** mariadb-install-db / mysql_install_db, for the flavors and versions that initialise a datadir with it. */
  readonly installDb?: string;
  readonly version: Version;
  /** The whole `mysqld --version` line. */
  readonly versionText: string;
}

export interface ServerVersionInfo {
  readonly version: Version;
  /** Only MariaDB says its name; MySQL and Percona builds from source do not, so they read as "mysql". */
  readonly reportsMariadb: boolean;
  readonly text: string;
}

const SERVER_NAMES: Record<Flavor, readonly string[]> = {
  mariadb: ['sbin/mariadbd', 'bin/mariadbd', 'sbin/mysqld', 'bin/mysqld', 'libexec/mysqld'],
  mysql: ['bin/mysqld', 'sbin/mysqld', 'libexec/mysqld'],
  percona: ['bin/mysqld', 'sbin/mysqld', 'libexec/mysqld'],
};
const INSTALL_DB_NAMES: Record<Flavor, readonly string[]> = {
  mariadb: ['scripts/mariadb-install-db', 'bin/mariadb-install-db', 'scripts/mysql_install_db', 'bin/mysql_install_db'],
  mysql: ['scripts/mysql_install_db', 'bin/mysql_install_db'],
  percona: ['scripts/mysql_install_db', 'bin/mysql_install_db'],
};

const SERVER_PROGRAM = { what: 'server program', elsewhere: "name a server installed by root (a target's basedir)" };

/**
 * Finds the server of an installation: a basedir or install prefix (/usr, builds/<key>, an unpacked tarball), or
 * the server binary itself. Runs `mysqld --version` to learn the version.
 */
export async function resolveServerBinaries(
  flavor: Flavor,
  basedirOrBinary: string,
  log?: Logger,
): Promise<ServerBinaries> {
  const given = resolve(basedirOrBinary);
  const isFile = await stat(given).then(
    (s) => s.isFile(),
    () => false,
  );
  const basedir = isFile ? prefixOf(given) : given;
  const mysqld = isFile ? await executable(given) : await firstExecutable(basedir, SERVER_NAMES[flavor]);
  if (mysqld === undefined) {
    throw new ServerBinaryMissingError(
      `${flavor} server`,
      isFile ? [given] : SERVER_NAMES[flavor].map((n) => join(basedir, n)),
    );
  }
  // Root runs it (--version now, the server and its install script later): another user's program is refused first.
  checkTrustedFile(mysqld, SERVER_PROGRAM);
  const info = await serverVersion(mysqld, log);
  checkFlavor(flavor, mysqld, info);
  const installDb = usesInstallDb(flavor, info.version) ? await findInstallDb(flavor, basedir) : undefined;
  if (installDb !== undefined) checkTrustedFile(installDb, SERVER_PROGRAM);
  return {
    flavor,
    basedir,
    mysqld,
    version: info.version,
    versionText: info.text,
    ...(installDb !== undefined ? { installDb } : {}),
  };
}

/**
 * MariaDB always uses its install script; MySQL and Percona before 5.7.6 had mysql_install_db, later mysqld
 * --initialize.
 */
export function usesInstallDb(flavor: Flavor, version: Version): boolean {
  return flavor === 'mariadb' || compareVersions(version, parseVersion('5.7.6')) < 0;
}

async function findInstallDb(flavor: Flavor, basedir: string): Promise<string> {
  const found = await firstExecutable(basedir, INSTALL_DB_NAMES[flavor]);
  if (found === undefined)
    throw new ServerBinaryMissingError(
      `${flavor} datadir install script`,
      INSTALL_DB_NAMES[flavor].map((n) => join(basedir, n)),
    );
  return found;
}

function checkFlavor(flavor: Flavor, mysqld: string, info: ServerVersionInfo): void {
  if ((flavor === 'mariadb') !== info.reportsMariadb) {
    const says = info.reportsMariadb ? 'MariaDB' : 'MySQL or Percona Server';
    throw new ServerVersionError(
      mysqld,
      info.text,
      `this is ${says}, but the target's flavor is ${flavor}; fix the target's flavor or basedir`,
    );
  }
}

/** /usr/sbin/mariadbd -> /usr; /opt/x/bin/mysqld -> /opt/x; a binary elsewhere is its own basedir's folder. */
function prefixOf(binary: string): string {
  const dir = dirname(binary);
  return ['bin', 'sbin', 'libexec'].includes(basename(dir)) ? dirname(dir) : dir;
}

async function firstExecutable(basedir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    const found = await executable(join(basedir, name));
    if (found !== undefined) return found;
  }
  return undefined;
}

async function executable(path: string): Promise<string | undefined> {
  const isFile = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) return undefined;
  return access(path, constants.X_OK).then(
    () => path,
    () => undefined,
  );
}

/** `mysqld --version`, e.g. "mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu" -> 10.11.19. */
export async function serverVersion(mysqld: string, log?: Logger): Promise<ServerVersionInfo> {
  const result = await run({ argv: [mysqld, '--version'], timeoutMs: 30_000, log });
  return parseServerVersionOutput(mysqld, result.stdout + result.stderr);
}

// The build suffix is numeric only: "-28" (Percona) is part of the version, "-MariaDB" and "-0ubuntu0.22.04.1" are not.
const VER_RE = /\bVer\s+(\d+\.\d+\.\d+(?:-\d+(?:\.\d+)*)?)(?=[-\s]|$)/;

export function parseServerVersionOutput(mysqld: string, output: string): ServerVersionInfo {
  const line = output.split('\n').find((l) => VER_RE.test(l));
  const m = line === undefined ? null : VER_RE.exec(line);
  if (line === undefined || m === null) throw new ServerVersionError(mysqld, output, 'no "Ver X.Y.Z" in the output');
  try {
    // Only the text after "Ver": the program's own path may well contain "mariadb".
    return { version: parseVersion(m[1]!), reportsMariadb: /mariadb/i.test(line.slice(m.index)), text: line.trim() };
  } catch (err) {
    if (err instanceof VersionParseError) throw new ServerVersionError(mysqld, output, err.message);
    throw err;
  }
}
