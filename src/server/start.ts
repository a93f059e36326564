import { stat } from 'node:fs/promises';
import { start, type ChildHandle, type RunResult } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { ServerBinaries } from './binaries.js';
import { lockDownAccounts } from './accounts.js';
import { connectRoot, type Connection } from './connection.js';
import type { ServerCredential } from './credential.js';
import { pickLogErrors, logSize, readLogSince } from './log-tail.js';
import { ServerStartError } from './errors.js';
import { assertReachable, checkSocketPath, prepareServerDirs, type ServerNetwork, type ServerPaths } from './paths.js';
import { assertPortFree, assertSocketFree } from './preflight.js';
import { RunningServerImpl, type RunningServer } from './running.js';
import { serverAccount, userArgs, type ServerAccount } from './user.js';

export interface StartServerOptions {
  readonly binaries: ServerBinaries;
  readonly myCnfPath: string;
  /** The paths rendered into the my.cnf: the socket to wait on, the error log to quote. */
  readonly paths: ServerPaths;
  /** As rendered into the my.cnf; undefined means skip-networking. */
  readonly network?: ServerNetwork;
  /** mysqld's stdout and stderr (most messages go to the error log). */
  readonly logFile: string;
  /**
   * server_user; empty or undefined: mysql when qpswatch is root (the server never runs as root), else qpswatch's own
   * user.
   */
  readonly user?: string;
  /**
   * root@localhost's password for this session. Without it, root is expected to have none (a test's scratch server);
   * a session always passes one.
   */
  readonly credential?: ServerCredential;
  /**
   * The first start of a datadir straight from init: the server starts without TCP (skip-networking), qpswatch
   * connects as root without a password over its private socket, removes the install's other root and anonymous
   * accounts and gives root the credential. Needs credential.
   */
  readonly lockDown?: boolean;
  /**
   * With lockDown: the datadir is a loaded one kept from another session (LoadedDatadirCache), its root holding that
   * session's password, which nobody kept. The server starts with --skip-grant-tables (and, as lockDown does, no
   * networking), loads the grant tables once connected, and gives root the credential.
   */
  readonly resetGrants?: boolean;
  /** Crash recovery or a large buffer pool can take a while. Default 2 minutes. */
  readonly readyTimeoutMs?: number;
  /** After SHUTDOWN, how long to wait before SIGTERM; after SIGTERM, before SIGKILL. Default 2 minutes each. */
  readonly stopTimeoutMs?: number;
  /** Start, readiness and a forced stop are logged as component server; mysqld's exit through exec. */
  readonly log: Logger;
  /**
   * A program mysqld runs under, its argv before mysqld's (valgrind's callgrind for the instructions lane). The
   * process exec starts and stops is then that program's, with mysqld inside it.
   */
  readonly wrapper?: readonly string[];
  /** Server options after the my.cnf's, which they override: what the instructions lane lays over the profile. */
  readonly extraArgs?: readonly string[];
  /**
   * Stop by SIGTERM (mysqld's own clean shutdown) instead of the SHUTDOWN statement: a statement would run in the
   * server's query dispatcher, which the instructions lane counts up to the server's exit.
   */
  readonly stopBySignal?: boolean;
}

const DEFAULT_READY_MS = 120_000;
const DEFAULT_STOP_MS = 120_000;
// exec's timeout guards against hangs; a server lives as long as its session. setTimeout caps at 2^31-1 ms (24.8 days).
const SERVER_LIFETIME_MS = 2 ** 31 - 1;
// Until the server listens, an attempt fails at once (no socket file yet): polling often costs nothing, while a long
// pause delays every start by up to that pause (with pauses doubling to 1 s, a server ready at 0.8 s was seen at 1.55).
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 100;

/** Starts mysqld and resolves once it answers on its socket; on failure nothing is left running. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  if (opts.lockDown === true && opts.credential === undefined)
    throw new TypeError('startServer: lockDown needs a credential');
  if (opts.resetGrants === true && opts.lockDown !== true)
    throw new TypeError('startServer: resetGrants needs lockDown');
  const account = serverAccount(opts.user);
  await preflight(opts, account);
  const offset = await logSize(opts.paths.errorLog);
  const argv = [
    ...(opts.wrapper ?? []),
    ...serverArgv(opts.binaries, opts.myCnfPath, account, opts.lockDown === true),
    ...(opts.resetGrants === true ? ['--skip-grant-tables'] : []),
    ...(opts.extraArgs ?? []),
  ];
  const stopMs = opts.stopTimeoutMs ?? DEFAULT_STOP_MS;
  const log = opts.log.child({ component: 'server' });
  log.info({ argv, socket: opts.paths.socket }, 'starting server');
  const handle = start({
    argv,
    logFile: opts.logFile,
    timeoutMs: SERVER_LIFETIME_MS,
    killGraceMs: stopMs,
    log: opts.log,
    // A server must not outlive the qpswatch that started it (a SIGKILL): it would hold its datadir and port.
    dieWithParent: true,
  });
  const exited = settle(handle);
  let admin: Connection;
  try {
    admin = await waitReady(opts, handle, exited, offset);
  } catch (err) {
    await handle.stop();
    throw err;
  }
  const running = new RunningServerImpl({
    handle,
    exited,
    admin,
    socket: opts.paths.socket,
    errorLog: opts.paths.errorLog,
    version: opts.binaries.version,
    stopTimeoutMs: stopMs,
    log,
    ...(opts.stopBySignal === true ? { stopBySignal: true } : {}),
    ...(opts.credential !== undefined ? { credential: opts.credential } : {}),
    ...(opts.network && opts.lockDown !== true ? { port: opts.network.port } : {}),
  });
  if (opts.lockDown === true && opts.credential !== undefined) {
    try {
      // Under --skip-grant-tables nothing is checked, and no account can be changed, until the tables are loaded.
      if (opts.resetGrants === true) await admin.query('FLUSH PRIVILEGES');
      await lockDownAccounts(admin, opts.binaries, opts.credential);
    } catch (err) {
      await running.stop();
      throw err;
    }
    log.info(
      { serverPid: handle.pid },
      'root@localhost has its session password; other root and anonymous accounts removed',
    );
  }
  log.info({ serverPid: handle.pid, socket: opts.paths.socket, user: account?.name }, 'server ready');
  return running;
}

/**
 * The command that starts mysqld. --defaults-file must come first: mysqld reads it before any other option. As root,
 * --user names the unprivileged server account. On the command line, skip-networking wins over the my.cnf's port:
 * nothing listens on TCP while root has no password (lockDown). Pure: unit-tested for flavors not installed here.
 */
export function serverArgv(
  binaries: Pick<ServerBinaries, 'mysqld' | 'basedir'>,
  myCnfPath: string,
  account: ServerAccount | undefined,
  lockDown: boolean,
): string[] {
  return [
    binaries.mysqld,
    `--defaults-file=${myCnfPath}`,
    `--basedir=${binaries.basedir}`,
    ...userArgs(account),
    ...(lockDown ? ['--skip-networking'] : []),
  ];
}

async function preflight(opts: StartServerOptions, account: ServerAccount | undefined): Promise<void> {
  checkSocketPath(opts.paths.socket);
  if (account !== undefined) {
    await assertReachable(opts.paths.datadir, account, 'the datadir');
    await assertReachable(opts.paths.socket, account, 'the socket');
  }
  const datadir = await stat(opts.paths.datadir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!datadir) {
    throw new ServerStartError(
      'no-datadir',
      [],
      opts.paths.errorLog,
      `datadir ${opts.paths.datadir} does not exist: initialise it first (initDatadir)`,
    );
  }
  await assertSocketFree(opts.paths.socket);
  if (opts.network !== undefined) await assertPortFree(opts.network.bindAddress, opts.network.port);
  await prepareServerDirs(opts.paths, account);
}

/** Always resolves with how the process ended: a non-zero exit is data here, not an exception. */
function settle(handle: ChildHandle): Promise<RunResult> {
  return handle.exited.catch(() => handle.stop());
}

async function waitReady(
  opts: StartServerOptions,
  handle: ChildHandle,
  exited: Promise<RunResult>,
  offset: number,
): Promise<Connection> {
  const deadline = Date.now() + (opts.readyTimeoutMs ?? DEFAULT_READY_MS);
  let pause = FIRST_POLL_MS;
  while (Date.now() < deadline) {
    // Until the server listens, this fails at once (no socket file, or nobody accepting).
    // A datadir straight from init has no password yet: lockDown connects without one.
    const credential = opts.lockDown === true ? undefined : opts.credential;
    const conn = await connectRoot({
      socket: opts.paths.socket,
      connectTimeoutMs: 5000,
      ...(credential !== undefined ? { credential } : {}),
    }).catch(() => undefined);
    if (conn !== undefined) return conn;
    const ended = await Promise.race([exited, delay(pause).then(() => undefined)]);
    if (ended !== undefined) {
      const how = ended.signal !== null ? `killed by ${ended.signal}` : `exit code ${ended.exitCode}`;
      throw await startError(opts, handle, 'exited', `mysqld exited during start-up with ${how}`, ended.tail, offset);
    }
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
  const result = await handle.stop();
  throw await startError(
    opts,
    handle,
    'timeout',
    `no answer on ${opts.paths.socket} within ${opts.readyTimeoutMs ?? DEFAULT_READY_MS} ms; stopped it`,
    result.tail,
    offset,
  );
}

async function startError(
  opts: StartServerOptions,
  handle: ChildHandle,
  reason: 'exited' | 'timeout',
  detail: string,
  tail: readonly string[],
  offset: number,
): Promise<ServerStartError> {
  const lines = pickLogErrors(tail.join('\n'), await readLogSince(opts.paths.errorLog, offset));
  return new ServerStartError(reason, lines, opts.paths.errorLog, detail, handle.pid);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
