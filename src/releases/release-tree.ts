import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkFreeSpace, unpackInto } from '../compile/index.js';
import type { Logger } from '../log/index.js';
import type { ReleaseRecord } from '../store/index.js';
import {
  downloadFile,
  locateTarball,
  removeWorktree,
  syncMirror,
  tarballCommit,
  TarballChangedError,
  updateSubmodules,
  type Upstream,
} from '../upstream/index.js';
import { addWorktreeRepairing, mirrorDirFor } from './worktrees.js';

/** What a tree is made from, and how it is checked out and removed. */
export interface TreeDeps {
  cacheDir: string;
  /** The disk guard's folder and limit: a source tarball is checked against it before its download. */
  stateDir: string;
  minFreeBytes: number;
  signal: AbortSignal;
  log: Logger;
}

/**
 * A release's source tree in the key's worktree folder, made the way its upstream gives sources: a git upstream's tag
 * is checked out of the bare mirror by commit id (with its submodules), a source upstream's tarball is located in the
 * index again, downloaded, checked against the sha256 discovery saw and unpacked. Either way the build that follows is
 * the same (build-release.ts), and `remove` takes the tree away after it, whatever state it was left in.
 */
export interface ReleaseTree {
  checkout(dir: string): Promise<void>;
  remove(dir: string): Promise<void>;
}

export function releaseTree(release: ReleaseRecord, upstream: Upstream, deps: TreeDeps): ReleaseTree {
  return upstream.kind === 'source' ? sourceTree(release, upstream, deps) : gitTree(release.commit, upstream, deps);
}

function gitTree(commit: string, upstream: Upstream, deps: TreeDeps): ReleaseTree {
  const { signal, log } = deps;
  const mirror = mirrorDirFor(deps.cacheDir, upstream.remote);
  return {
    async checkout(dir) {
      log.info({ commit, remote: upstream.remote }, 'updating the mirror');
      await syncMirror(upstream.remote, mirror, { signal, log });
      await addWorktreeRepairing(mirror, commit, dir, deps);
      if (upstream.flavor === 'mariadb') await updateSubmodules(dir, { signal, log });
    },
    // Nothing there: the checkout failed before it made the folder (a remote that did not answer).
    remove: async (dir) => (existsSync(dir) ? removeWorktree(mirror, dir, { log }) : undefined),
  };
}

/**
 * A source tarball, downloaded into cache_dir/downloads/<its sha256's first 16 hex>/ (a .partial file until whole and
 * verified), unpacked without its top folder into the worktree folder, and then deleted: the tree is what the build
 * uses, and a retry or another profile's build downloads it again.
 */
function sourceTree(release: ReleaseRecord, upstream: Upstream, deps: TreeDeps): ReleaseTree {
  const { signal, log } = deps;
  return {
    async checkout(dir) {
      const file = await locateTarball(upstream, release.tag, { signal, log });
      // The build key holds the sha256 discovery saw: a published source that changed since is not built under it.
      if (tarballCommit(file.sha256) !== release.commit)
        throw new TarballChangedError(release.tag, file.url, file.sha256, release.commit);
      await checkFreeSpace(deps.stateDir, deps.minFreeBytes);
      const folder = join(deps.cacheDir, 'downloads', file.sha256.slice(0, 16));
      const download = join(folder, file.fileName);
      try {
        await downloadFile(file.url, download, { sha256: file.sha256, signal, log });
        await unpackInto(download, dir, { signal, log, holds: 'one folder with the source tree in it' });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    remove: (dir) => rm(dir, { recursive: true, force: true }),
  };
}
