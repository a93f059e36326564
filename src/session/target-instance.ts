import { chown, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertReachable,
  checkServerOptions,
  renderMyCnf,
  startServer,
  initDatadir,
  checkSocketPath,
  prepareServerDirs,
  privateDir,
  PRIVATE_DIR_MODE,
  SOCKET_DIR_MODE,
  serverAccount,
  ServerCredential,
  type RunningServer,
  type ServerNetwork,
  type ServerPaths,
} from '../server/index.js';
import type { Logger } from '../log/index.js';
import { writeSysbenchPassword } from '../suite/index.js';
import { copyTree } from './copy-tree.js';
import type { LoadedDatadirCache } from './datadir-cache.js';
import type { PreparedTarget } from './target.js';

/**
 * The state folder, its work/ (session folders) and run/ (the servers' sockets): nobody but qpswatch's user and the
 * group may enter them (0750; run/ 0770 with a server account, so mysqld can make its socket there). With a server
 * account (qpswatch is root) the group of the folders it makes is the server's, and the account must pass through
 * every folder above them. A state folder that exists keeps its group and mode (the service's operators read it
 * through group qpswatch), and one that another user made or linked is refused before anything is changed.
 */
export async function prepareStateFolders(stateDir: string, serverUser: string | undefined): Promise<void> {
  const account = serverAccount(serverUser);
  await privateDir(stateDir, account, PRIVATE_DIR_MODE, { keepExisting: true });
  // Checked before anything below it is made or changed, and again for run/, which may be the service's.
  if (account !== undefined) await assertReachable(join(stateDir, 'x'), account, 'state_dir');
  await privateDir(join(stateDir, 'work'), account);
  await privateDir(join(stateDir, 'run'), account, account !== undefined ? SOCKET_DIR_MODE : PRIVATE_DIR_MODE);
  if (account !== undefined) await assertReachable(join(stateDir, 'run', 'x.sock'), account, 'state_dir');
}

/** How long a server may take to answer after start (server_start_timeout_seconds) and to stop (..._stop_...). */
export interface ServerTimeouts {
  readyMs: number;
  stopMs: number;
}

/** How the instructions lane starts a server (startServer's options of the same names); the QPS lane gives none. */
export interface ServerLaunch {
  wrapper?: readonly string[];
  extraArgs?: readonly string[];
  stopBySignal?: boolean;
  /** At least this long to answer: a server under valgrind starts several times slower. */
  readyMs?: number;
}

/**
 * One target's files during a session: the loaded datadir kept as a snapshot, the copy a round runs on, its my.cnf
 * and logs. Every round starts from a fresh copy of the snapshot, so each sample is an independent run.
 *
 * The server's root@localhost gets a random password of this instance's at its first start (ServerCredential); sysbench
 * reads it from sysbench.cnf (0600), never from its command line.
 */
export class TargetInstance {
  readonly dir: string;
  readonly paths: ServerPaths;
  readonly myCnfPath: string;
  readonly snapshotDir: string;
  readonly sysbenchLog: string;
  /** sysbench's --config-file with the password (0600); removed with the data. */
  readonly sysbenchPasswordFile: string;
  private readonly serverLog: string;
  private readonly credential = ServerCredential.random();
  /** Set once the first start has given root its password: later starts (snapshot copies) log in with it. */
  private lockedDown = false;
  /** The datadir came from the cache: its root has another session's password until the first start. */
  private grantsFromCache = false;
  /** This side's server variables are stored (keepServerVariables): once per session is enough. */
  variablesKept = false;
  /** This side's statement plans are stored (keepStatementPlans): once per session. */
  plansKept = false;

  constructor(
    readonly target: PreparedTarget,
    sessionDir: string,
    socket: string,
    private readonly network: ServerNetwork | undefined,
    private readonly user: string | undefined,
    private readonly timeouts: ServerTimeouts,
  ) {
    this.dir = join(sessionDir, target.name);
    checkSocketPath(socket);
    this.paths = {
      datadir: join(this.dir, 'data'),
      socket,
      pidFile: join(this.dir, 'mysqld.pid'),
      errorLog: join(this.dir, 'error.log'),
      tmpdir: join(this.dir, 'tmp'),
      secureFileDir: join(this.dir, 'files'),
    };
    this.myCnfPath = join(this.dir, 'my.cnf');
    this.snapshotDir = join(this.dir, 'snapshot');
    this.sysbenchLog = join(this.dir, 'sysbench.log');
    this.serverLog = join(this.dir, 'mysqld.out');
    this.sysbenchPasswordFile = join(this.dir, 'sysbench.cnf');
  }

  /**
   * The folders, the my.cnf, which the server binary checks (an option it does not know fails here in a second, with
   * its own error line), and sysbench's password file: all but the datadir, which comes next from initialiseDatadir
   * or the cache.
   */
  async prepare(log: Logger): Promise<void> {
    const account = serverAccount(this.user);
    await privateDir(this.dir, account);
    await prepareServerDirs(this.paths, account);
    await writeFile(this.myCnfPath, this.myCnfText(), { mode: 0o640 });
    await writeSysbenchPassword(this.sysbenchPasswordFile, this.credential.reveal());
    await checkServerOptions(this.target.binaries, this.myCnfPath, log, this.user);
  }

  /** prepare, then an empty datadir: a server of its own for a bench or a test, loaded by the caller. */
  async initialise(log: Logger): Promise<void> {
    await this.prepare(log);
    await this.initialiseDatadir(log);
  }

  /** An empty datadir, initialised by the server's own tool. */
  async initialiseDatadir(log: Logger): Promise<void> {
    await initDatadir({
      binaries: this.target.binaries,
      myCnfPath: this.myCnfPath,
      paths: this.paths,
      logFile: join(this.dir, 'init.log'),
      log,
      ...(this.user !== undefined ? { user: this.user } : {}),
    });
  }

  /**
   * The datadir is a copy of a cached loaded one (LoadedDatadirCache) instead of a new one; false when the cache has
   * none for key. The first start then gives root this instance's password.
   */
  async takeCachedDatadir(cache: LoadedDatadirCache, key: string, log: Logger): Promise<boolean> {
    this.grantsFromCache = await cache.take(key, this.paths.datadir, log);
    return this.grantsFromCache;
  }

  /** The my.cnf this target runs with, as prepare() writes it. */
  myCnfText(): string {
    return renderMyCnf(this.target.profile, this.target.binaries, this.paths, this.network);
  }

  async start(log: Logger, launch: ServerLaunch = {}): Promise<RunningServer> {
    const server = await startServer({
      binaries: this.target.binaries,
      myCnfPath: this.myCnfPath,
      paths: this.paths,
      ...(this.network !== undefined ? { network: this.network } : {}),
      logFile: this.serverLog,
      ...(this.user !== undefined ? { user: this.user } : {}),
      readyTimeoutMs: Math.max(this.timeouts.readyMs, launch.readyMs ?? 0),
      stopTimeoutMs: this.timeouts.stopMs,
      credential: this.credential,
      lockDown: !this.lockedDown,
      ...(!this.lockedDown && this.grantsFromCache ? { resetGrants: true } : {}),
      log,
      ...(launch.wrapper !== undefined ? { wrapper: launch.wrapper } : {}),
      ...(launch.extraArgs !== undefined ? { extraArgs: launch.extraArgs } : {}),
      ...(launch.stopBySignal === true ? { stopBySignal: true } : {}),
    });
    this.lockedDown = true;
    return server;
  }

  /** The loaded datadir (server stopped) becomes the snapshot every round copies. */
  async keepAsSnapshot(): Promise<void> {
    await rm(this.snapshotDir, { recursive: true, force: true });
    await rename(this.paths.datadir, this.snapshotDir);
  }

  /** A fresh copy of the snapshot becomes the datadir. */
  async restoreSnapshot(): Promise<void> {
    await rm(this.paths.datadir, { recursive: true, force: true });
    await copyTree(this.snapshotDir, this.paths.datadir);
  }

  /**
   * A new empty file in this instance's folder that the server's account may write (0600, its own): callgrind opens
   * its output as root when it starts, and again as the server's account when mysqld, which dropped root, exits.
   */
  async serverWritableFile(name: string): Promise<string> {
    const path = join(this.dir, name);
    await rm(path, { force: true });
    await writeFile(path, '', { mode: 0o600, flag: 'wx' });
    const account = serverAccount(this.user);
    if (account !== undefined) await chown(path, account.uid, account.gid);
    return path;
  }

  /** Datadirs are large and only meaningful while the session runs; the logs stay for people to read. */
  async removeData(): Promise<void> {
    await rm(this.paths.datadir, { recursive: true, force: true });
    await rm(this.snapshotDir, { recursive: true, force: true });
    await rm(this.paths.tmpdir, { recursive: true, force: true });
    await rm(this.paths.secureFileDir, { recursive: true, force: true });
    await rm(this.sysbenchPasswordFile, { force: true });
  }
}
