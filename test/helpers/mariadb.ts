import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  initDatadir,
  loadServerProfile,
  renderMyCnf,
  resolveServerBinaries,
  serverPaths,
  startServer,
  type RunningServer,
  type ServerExit,
} from '../../src/server/index.js';
import { letServerPass } from './server-user.js';
import { silentLog } from '../helpers/silent-log.js';

/** The distribution MariaDB server every integration test on this host runs against. */
export const MARIADB_BASEDIR = '/usr';

export interface ScratchServer {
  readonly server: RunningServer;
  readonly socket: string;
  /** The temp folder holding the datadir, socket and logs; gone after close(). */
  readonly root: string;
  /** Stops the server and removes the temp folder; runs both steps even when one fails. Idempotent. */
  close(): Promise<ServerExit | undefined>;
}

export interface ScratchServerOptions {
  /** A shipped server profile (config/server-profiles). */
  profile: string;
  /** Start of the temp folder's name under `parent`; short, so the socket path stays under the unix limit. */
  prefix: string;
  /**
   * The folder the temp folder is made in; default /tmp. /dev/shm (tmpfs) for a test that makes many tables, each
   * of which costs a few fsyncs on a disk.
   */
  parent?: string;
}

/**
 * A mariadbd of its own for one test file: a fresh datadir in a temp folder, a private socket there and no TCP
 * (renderMyCnf without a network writes skip-networking). Nothing is left behind when start fails half way.
 */
export async function startScratchServer(opts: ScratchServerOptions): Promise<ScratchServer> {
  const root = letServerPass(await mkdtemp(join(opts.parent ?? '/tmp', opts.prefix)));
  let server: RunningServer | undefined;
  const close = once(async () => {
    try {
      return await server?.stop();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  try {
    const binaries = await resolveServerBinaries('mariadb', MARIADB_BASEDIR);
    const profile = await loadServerProfile(opts.profile);
    const paths = serverPaths(join(root, 'server'));
    await mkdir(join(root, 'server'), { recursive: true });
    const myCnfPath = join(root, 'server', 'my.cnf');
    await writeFile(myCnfPath, renderMyCnf(profile, binaries, paths));
    await initDatadir({ log: silentLog, binaries, myCnfPath, paths, logFile: join(root, 'init.log') });
    server = await startServer({
      log: silentLog,
      binaries,
      myCnfPath,
      paths,
      logFile: join(root, 'mysqld.out'),
      readyTimeoutMs: 60_000,
      stopTimeoutMs: 30_000,
    });
    return { server, socket: paths.socket, root, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => (running ??= fn());
}
