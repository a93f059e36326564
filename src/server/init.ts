import { readdir } from 'node:fs/promises';
import { ExecError, run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { Version } from '../version/index.js';
import { atLeast } from './at-least.js';
import type { ServerBinaries } from './binaries.js';
import { DatadirInitError, DatadirNotEmptyError } from './errors.js';
import { pickLogErrors, logSize, readLogSince } from './log-tail.js';
import { assertReachable, prepareDatadir, type ServerPaths } from './paths.js';
import { serverAccount } from './user.js';

export interface InitDatadirArgs {
  readonly binaries: ServerBinaries;
  /** The rendered my.cnf: InnoDB file sizes and page size are fixed at init, so init reads the same file as start. */
  readonly myCnfPath: string;
  readonly datadir: string;
  /** --user: the server account's name; undefined leaves it out (qpswatch is not root). */
  readonly user?: string;
}

/**
 * The command that creates a fresh datadir, per flavor and version. Pure: unit-tested for servers not installed here.
 */
export function initDatadirArgv(args: InitDatadirArgs): string[] {
  const { binaries, myCnfPath, datadir, user } = args;
  const common = [`--defaults-file=${myCnfPath}`];
  const tail = [
    `--basedir=${binaries.basedir}`,
    `--datadir=${datadir}`,
    ...(user !== undefined ? [`--user=${user}`] : []),
  ];
  if (binaries.flavor === 'mariadb')
    return [needInstallDb(binaries), ...common, ...mariadbInstallOptions(binaries.version), ...tail];
  if (!atLeast(binaries.version, '5.7.6')) return [needInstallDb(binaries), ...common, ...tail];
  return [binaries.mysqld, ...common, '--initialize-insecure', ...tail];
}

function mariadbInstallOptions(version: Version): string[] {
  return [
    // 10.4 made root log in by unix socket only. Every flavor's init leaves root@localhost without a password here;
    // the first start (skip-networking, private socket folder) gives it the session's password (accounts.ts).
    ...(atLeast(version, '10.1') ? ['--auth-root-authentication-method=normal'] : []),
    ...(atLeast(version, '10.3') ? ['--skip-test-db'] : []),
  ];
}

function needInstallDb(binaries: ServerBinaries): string {
  if (binaries.installDb === undefined) {
    throw new TypeError(
      `${binaries.flavor} ${binaries.version.text} initialises its datadir ` +
        `with an install script, but the binaries have none`,
    );
  }
  return binaries.installDb;
}

export interface InitDatadirOptions {
  readonly binaries: ServerBinaries;
  readonly myCnfPath: string;
  readonly paths: ServerPaths;
  /** Output of the install command. */
  readonly logFile: string;
  /** server_user; empty or undefined: mysql when qpswatch is root (never root), else qpswatch's own user. */
  readonly user?: string;
  readonly timeoutMs?: number;
  readonly log: Logger;
}

/** Creates a fresh datadir. The datadir must be missing or empty: a round never reuses old data by accident. */
export async function initDatadir(opts: InitDatadirOptions): Promise<void> {
  const { paths } = opts;
  const leftovers = await readdir(paths.datadir).catch(() => [] as string[]);
  if (leftovers.length > 0) {
    throw new DatadirNotEmptyError(paths.datadir, leftovers);
  }
  const account = serverAccount(opts.user);
  if (account !== undefined) await assertReachable(paths.datadir, account, 'the datadir');
  await prepareDatadir(paths, account);
  const argv = initDatadirArgv({
    binaries: opts.binaries,
    myCnfPath: opts.myCnfPath,
    datadir: paths.datadir,
    ...(account !== undefined ? { user: account.name } : {}),
  });
  const offset = await logSize(paths.errorLog);
  opts.log.child({ component: 'server' }).info({ argv, datadir: paths.datadir }, 'initialising datadir');
  try {
    await run({
      argv,
      logFile: opts.logFile,
      timeoutMs: opts.timeoutMs ?? 10 * 60 * 1000,
      log: opts.log,
      dieWithParent: true,
    });
  } catch (err) {
    if (!(err instanceof ExecError)) throw err;
    const lines = pickLogErrors(err.tail.join('\n'), await readLogSince(paths.errorLog, offset));
    throw new DatadirInitError(
      paths.datadir,
      lines,
      opts.logFile,
      `${argv[0]} exited with ${err.signal ?? `code ${err.exitCode}`}`,
    );
  }
}
