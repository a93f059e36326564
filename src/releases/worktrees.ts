import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import { addWorktree, WorktreeFolderError } from '../upstream/index.js';

/** One bare mirror per remote, named by a hash of it, so two upstreams on one remote share their objects. */
export function mirrorDirFor(cacheDir: string, remote: string): string {
  return join(cacheDir, 'mirrors', createHash('sha256').update(remote).digest('hex').slice(0, 16));
}

/**
 * A build key's source tree (a git worktree, or an unpacked source tarball): named by key, never by tag; its lock
 * (acquireBuildLock) says who may use it.
 */
export function worktreeDirFor(cacheDir: string, key: string): string {
  return join(cacheDir, 'worktrees', key);
}

/**
 * Checks the commit out into the key's worktree folder. A folder the mirror does not know as its worktree is what a
 * killed build (or one that lost a race with an older qpswatch) left: the folder is the key's and this build holds
 * the key's lock, so it is removed and checked out again instead of asking a person to delete it.
 */
export async function addWorktreeRepairing(
  mirror: string,
  commit: string,
  worktree: string,
  { signal, log }: { signal: AbortSignal; log: Logger },
): Promise<void> {
  try {
    await addWorktree(mirror, commit, worktree, { signal, log });
  } catch (err) {
    if (!(err instanceof WorktreeFolderError)) throw err;
    log.warn(
      { worktree },
      'a worktree folder left by an earlier build is not a worktree of the mirror: removing it and checking out again',
    );
    await rm(worktree, { recursive: true, force: true });
    await addWorktree(mirror, commit, worktree, { signal, log });
  }
}
