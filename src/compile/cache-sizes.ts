import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheKind, CacheSizes } from '../model/index.js';

/**
 * Where each measured folder is: ccache's objects and the git mirrors under cache_dir, the installs under state_dir.
 */
export function cacheFolders(dirs: { cacheDir: string; stateDir: string }): Record<CacheKind, string> {
  return {
    ccache: join(dirs.cacheDir, 'ccache'),
    mirrors: join(dirs.cacheDir, 'mirrors'),
    builds: join(dirs.stateDir, 'builds'),
  };
}

/**
 * Bytes a folder takes on disk (allocated blocks, as du counts them), links not followed. One entry at a time: a walk
 * of a large ccache must not fill libuv's thread pool, which the store and the HTTP server share. A folder that is not
 * there is 0; an entry that goes away during the walk (ccache cleaning up) is skipped.
 */
export async function folderBytes(dir: string, signal?: AbortSignal): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isGone(err)) return 0;
    throw err;
  }
  let bytes = 0;
  for (const entry of entries) {
    signal?.throwIfAborted();
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await folderBytes(path, signal);
    else bytes += await entryBytes(path);
  }
  return bytes;
}

async function entryBytes(path: string): Promise<number> {
  try {
    return (await lstat(path)).blocks * 512;
  } catch (err) {
    if (isGone(err)) return 0;
    throw err;
  }
}

function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Measures the three folders one after the other; an abort (the daemon stopping) ends the walk at the next entry. */
export async function measureCacheSizes(
  dirs: { cacheDir: string; stateDir: string },
  signal?: AbortSignal,
): Promise<CacheSizes> {
  const folders = cacheFolders(dirs);
  const bytes = {
    ccache: await folderBytes(folders.ccache, signal),
    mirrors: await folderBytes(folders.mirrors, signal),
    builds: await folderBytes(folders.builds, signal),
  };
  return { measuredAt: new Date().toISOString(), bytes };
}

/** Walking the cache takes seconds to minutes on a big one: measured at most once per this. */
export const CACHE_SIZES_MAX_AGE_MS = 5 * 60_000;

export interface CacheSizeCacheOptions {
  measure: () => Promise<CacheSizes>;
  maxAgeMs?: number;
  now?: () => number;
  /** Told of each new figure (the daemon writes it to the store for `qpswatch status`). */
  onMeasured?: (sizes: CacheSizes) => void | Promise<void>;
  /** Told when a walk fails; the last figure stays. */
  onError?: (err: unknown) => void;
}

/**
 * The last figure of the cache sizes, refreshed in the background: latest() never waits for a walk (a scrape serves
 * the figure it has, null before the first), and starts one only when the figure is older than maxAgeMs and no walk
 * is running. A failed walk is tried again no sooner than maxAgeMs later.
 */
export class CacheSizeCache {
  #last: CacheSizes | null = null;
  #tried = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | undefined;

  constructor(private readonly opts: CacheSizeCacheOptions) {}

  latest(): CacheSizes | null {
    const now = (this.opts.now ?? Date.now)();
    if (this.#running === undefined && now - this.#tried >= (this.opts.maxAgeMs ?? CACHE_SIZES_MAX_AGE_MS)) {
      this.#tried = now;
      this.#running = this.#refresh().finally(() => (this.#running = undefined));
    }
    return this.#last;
  }

  /** The walk in progress, if any (tests, and a close that waits for it). */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #refresh(): Promise<void> {
    try {
      const sizes = await this.opts.measure();
      this.#last = sizes;
      await this.opts.onMeasured?.(sizes);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }
}
