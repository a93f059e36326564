import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkServerOptions, renderMyCnf, startServer, initDatadir, checkSocketPath, type RunningServer, type ServerNetwork, type ServerPaths } from '../server/index.js';
import type { Logger } from '../log/index.js';
import type { PreparedTarget } from './target.js';

/**
 * One target's files during a session: the loaded datadir kept as a snapshot, the copy a round runs on, its my.cnf
 * and logs. Every round starts from a fresh copy of the snapshot, so each sample is an independent run.
 */
export class TargetInstance {
  readonly dir: string;
  readonly paths: ServerPaths;
  readonly myCnfPath: string;
  readonly snapshotDir: string;
  readonly sysbenchLog: string;
  private readonly serverLog: string;

  constructor(
    readonly target: PreparedTarget,
    sessionDir: string,
    socket: string,
    private readonly network: ServerNetwork | undefined,
    private readonly user: string | undefined,
    private readonly readyTimeoutMs: number,
  ) {
    this.dir = join(sessionDir, target.name);
    checkSocketPath(socket);
    this.paths = {
      datadir: join(this.dir, 'data'),
      socket,
      pidFile: join(this.dir, 'mysqld.pid'),
      errorLog: join(this.dir, 'error.log'),
      tmpdir: join(this.dir, 'tmp'),
    };
    this.myCnfPath = join(this.dir, 'my.cnf');
    this.snapshotDir = join(this.dir, 'snapshot');
    this.sysbenchLog = join(this.dir, 'sysbench.log');
    this.serverLog = join(this.dir, 'mysqld.out');
  }

  /**
   * Writes the my.cnf, has the server binary check it (an option it does not know fails here in a second, with its
   * own error line), and initialises an empty datadir.
   */
  async initialise(log: Logger): Promise<void> {
    await mkdir(this.paths.tmpdir, { recursive: true });
    await writeFile(this.myCnfPath, this.myCnfText());
    await checkServerOptions(this.target.binaries, this.myCnfPath, log);
    await initDatadir({ binaries: this.target.binaries, myCnfPath: this.myCnfPath, paths: this.paths, logFile: join(this.dir, 'init.log'), log, ...(this.user !== undefined ? { user: this.user } : {}) });
  }

  /** The my.cnf this target runs with, as initialise() writes it. */
  myCnfText(): string {
    return renderMyCnf(this.target.profile, this.target.binaries, this.paths, this.network);
  }

  start(log: Logger): Promise<RunningServer> {
    return startServer({
      binaries: this.target.binaries,
      myCnfPath: this.myCnfPath,
      paths: this.paths,
      ...(this.network !== undefined ? { network: this.network } : {}),
      logFile: this.serverLog,
      ...(this.user !== undefined ? { user: this.user } : {}),
      readyTimeoutMs: this.readyTimeoutMs,
      log,
    });
  }

  /** The loaded datadir (server stopped) becomes the snapshot every round copies. */
  async keepAsSnapshot(): Promise<void> {
    await rm(this.snapshotDir, { recursive: true, force: true });
    await rename(this.paths.datadir, this.snapshotDir);
  }

  async restoreSnapshot(): Promise<void> {
    await rm(this.paths.datadir, { recursive: true, force: true });
    await cp(this.snapshotDir, this.paths.datadir, { recursive: true, preserveTimestamps: true });
  }

  /** Datadirs are large and only meaningful while the session runs; the logs stay for people to read. */
  async removeData(): Promise<void> {
    await rm(this.paths.datadir, { recursive: true, force: true });
    await rm(this.snapshotDir, { recursive: true, force: true });
    await rm(this.paths.tmpdir, { recursive: true, force: true });
  }
}
