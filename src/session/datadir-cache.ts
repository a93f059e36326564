import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, realpath, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describeBytes, folderBytes, freeSpace } from '../compile/index.js';
import type { Logger } from '../log/index.js';
import { checkCacheDir, privateDir, renderMyCnf, type ServerPaths } from '../server/index.js';
import { findSysbench, prepareArgv, type Suite } from '../suite/index.js';
import { copyTree } from './copy-tree.js';
import type { PreparedTarget } from './target.js';

/** Bump when what an entry holds, or how it is keyed, changes: older entries are then never taken. */
const FORMAT = 1;
// The my.cnf of a key names no session's folders: only the settings decide what the load writes.
const KEY_PATHS: ServerPaths = {
  datadir: '/datadir',
  socket: '/socket',
  pidFile: '/pid',
  errorLog: '/error.log',
  tmpdir: '/tmp',
  secureFileDir: '/files',
};

/**
 * Loaded datadirs kept between sessions, under cache_dir/datadirs: datadir_cache of them, the one used longest ago
 * going first. Loading a suite is the slow part of a session's start (an hour for a large small-server table on a
 * small host), and every check of a series loads its last good release again. An entry is keyed by all that decides
 * what the load writes: the server binary, its my.cnf (paths left out), sysbench and the load (script, the Lua files
 * beside it, arguments, databases, tables, rows). The load's random seed is fixed, so the rows are the same either way.
 *
 * An entry keeps the root password hash of the session that loaded it: a random password that nobody kept. The
 * session that takes an entry starts it once with --skip-grant-tables (and no networking, on its private socket) to
 * give root its own password, as a freshly initialised datadir is locked down (TargetInstance.start).
 */
export class LoadedDatadirCache {
  private constructor(
    private readonly dir: string,
    private readonly keep: number,
    private readonly minFreeBytes: number,
  ) {}

  /**
   * cache_dir, datadir_cache and min_free_bytes (a copy that would leave less free is not made); undefined when
   * datadir_cache is 0 (every session loads its own).
   */
  static of(cacheDir: string, keep: number, minFreeBytes: number): LoadedDatadirCache | undefined {
    return keep > 0 ? new LoadedDatadirCache(join(cacheDir, 'datadirs'), keep, minFreeBytes) : undefined;
  }

  async key(target: PreparedTarget, suite: Pick<Suite, 'loads'>): Promise<string> {
    const mysqld = await fileIdentity(target.binaries.mysqld);
    const sysbench = await fileIdentity(findSysbench());
    const loads = [];
    for (const load of suite.loads) {
      loads.push({
        argv: prepareArgv({ load }, { socket: '/socket', user: 'root' }),
        lua: await luaFiles(dirname(load.scriptPath)),
      });
    }
    const myCnf = renderMyCnf(target.profile, target.binaries, KEY_PATHS);
    const text = JSON.stringify({
      format: FORMAT,
      mysqld,
      version: target.binaries.versionText,
      myCnf,
      sysbench,
      loads,
    });
    return createHash('sha256').update(text).digest('hex').slice(0, 24);
  }

  /** Copies the entry into datadir (which must not exist); false when there is none. */
  async take(key: string, datadir: string, log: Logger): Promise<boolean> {
    await this.checkFolder();
    const entry = join(this.dir, key);
    if (!(await isFolder(entry))) return false;
    try {
      await copyTree(entry, datadir);
    } catch (err) {
      // An entry pruned by another session while this one copied it: load as if there were none.
      log.warn({ err, entry }, 'a cached loaded datadir could not be copied: loading it again');
      await rm(datadir, { recursive: true, force: true });
      return false;
    }
    const now = new Date();
    await utimes(entry, now, now).catch(() => undefined);
    return true;
  }

  /**
   * Keeps a copy of the loaded datadir (server stopped) under key, then drops the entries used longest ago. A copy
   * that fails (a full disk) is a warning: the session goes on, and a later one loads again.
   */
  async put(key: string, datadir: string, log: Logger): Promise<void> {
    await this.checkFolder();
    const entry = join(this.dir, key);
    const partial = join(this.dir, `.partial-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      if (await this.wouldFill(datadir, log)) return;
      await copyTree(datadir, partial);
      // Two sessions that loaded the same key at once: the first one kept stays.
      await rename(partial, entry).catch(() => undefined);
      // cp -a kept the datadir's times; the entry was used now.
      const now = new Date();
      await utimes(entry, now, now).catch(() => undefined);
      log.info({ entry }, 'loaded datadir kept for later sessions (datadir_cache)');
      await this.prune(log);
    } catch (err) {
      log.warn({ err, entry }, 'the loaded datadir could not be kept in the cache: later sessions load it again');
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }

  /** Whether a copy of datadir would leave less than min_free_bytes free here; says so when it would. */
  private async wouldFill(datadir: string, log: Logger): Promise<boolean> {
    const [size, free] = await Promise.all([folderBytes(datadir), freeSpace(this.dir)]);
    if (free.freeBytes - size >= this.minFreeBytes) return false;
    log.info(
      { bytes: size, freeBytes: free.freeBytes, minFreeBytes: this.minFreeBytes },
      `the loaded datadir is not kept in the cache: ${describeBytes(size)} would leave less than min_free_bytes ` +
        `free in ${free.dir}`,
    );
    return true;
  }

  /**
   * What is copied in here becomes a server's datadir: the folder must be root's and private, and cache_dir one that
   * no other user owns or may write (checkCacheDir). A folder another user made is refused, never used.
   */
  private async checkFolder(): Promise<void> {
    await checkCacheDir(dirname(this.dir));
    await privateDir(this.dir, undefined, 0o700);
  }

  private async prune(log: Logger): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => !n.startsWith('.'));
    const used = await Promise.all(
      names.map(async (name) => ({
        name,
        at: (await stat(join(this.dir, name)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
    );
    for (const old of used.sort((a, b) => b.at - a.at).slice(this.keep)) {
      await rm(join(this.dir, old.name), { recursive: true, force: true });
      log.info({ entry: old.name }, 'cached loaded datadir dropped: more than datadir_cache are kept');
    }
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** A binary's identity without reading it all: a rebuild or an upgrade changes its size or its time. */
async function fileIdentity(path: string): Promise<{ path: string; size: number; mtimeMs: number }> {
  const real = await realpath(path);
  const s = await stat(real);
  return { path: real, size: s.size, mtimeMs: s.mtimeMs };
}

/** The Lua files beside a load's script (sysbench's stock scripts require oltp_common.lua from there), hashed. */
async function luaFiles(dir: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.lua')).sort()) {
    hashes[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  }
  return hashes;
}
