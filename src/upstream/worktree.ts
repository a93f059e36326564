import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CommitNotInMirrorError,
  GitCommandError,
  InvalidCommitError,
  NotAWorktreeError,
  WorktreeFolderError,
} from './errors.js';
import { runGit, type GitOptions } from './git.js';
import { assertBareRepository } from './mirror.js';

const COMMIT_RE = /^[0-9a-f]{40}$/;
const LOCAL_TIMEOUT_MS = 60_000;
const CHECKOUT_TIMEOUT_MS = 20 * 60 * 1000;
const SUBMODULE_TIMEOUT_MS = 30 * 60 * 1000;

export interface Worktree {
  readonly worktreeDir: string;
  readonly commit: string;
}

export function isCommitId(text: string): boolean {
  return COMMIT_RE.test(text);
}

/**
 * Checks a commit of the mirror out into its own folder, detached. Only a commit id is accepted, never a tag name:
 * tags are upstream data ("--upload-pack=...", "$(...)", ";") and never reach an argv.
 * A folder left by an earlier, interrupted run is replaced when it is a worktree of this mirror.
 */
export async function addWorktree(
  mirrorDir: string,
  commit: string,
  worktreeDir: string,
  opts: GitOptions = {},
): Promise<Worktree> {
  if (!isCommitId(commit)) throw new InvalidCommitError(commit);
  const mirror = resolve(mirrorDir);
  const dir = resolve(worktreeDir);
  await assertBareRepository(mirror, opts);
  await assertCommitInMirror(mirror, commit, opts);
  await removeWorktree(mirror, dir, opts);
  await runGit({
    ...opts,
    args: ['--git-dir', mirror, 'worktree', 'add', '--detach', '--quiet', dir, commit],
    defaultTimeoutMs: CHECKOUT_TIMEOUT_MS,
  });
  return { worktreeDir: dir, commit };
}

/**
 * Removes the worktree and its record in the mirror. Nothing to remove is fine; a folder that is not ours is an error.
 */
export async function removeWorktree(mirrorDir: string, worktreeDir: string, opts: GitOptions = {}): Promise<void> {
  const mirror = resolve(mirrorDir);
  const dir = resolve(worktreeDir);
  await runGit({ ...opts, args: ['--git-dir', mirror, 'worktree', 'prune'], defaultTimeoutMs: LOCAL_TIMEOUT_MS });
  const registered = await worktreesOf(mirror, opts);
  if (registered.includes(dir) || (existsSync(dir) && registered.includes(realpathSync(dir)))) {
    // Twice --force: a build may have left untracked files, and a worktree may be locked.
    await runGit({
      ...opts,
      args: ['--git-dir', mirror, 'worktree', 'remove', '--force', '--force', dir],
      defaultTimeoutMs: CHECKOUT_TIMEOUT_MS,
    });
    return;
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new WorktreeFolderError(dir, mirror);
}

/**
 * Fetches the submodules the commit names (MariaDB: libmariadb, wsrep-lib, columnstore; Percona: several). Runs only
 * when .gitmodules exists; returns whether it ran. Submodule URLs come from the upstream's own .gitmodules and keep
 * git's default transport policy (no local-file submodules).
 */
export async function updateSubmodules(worktreeDir: string, opts: GitOptions = {}): Promise<boolean> {
  const dir = resolve(worktreeDir);
  if (!existsSync(join(dir, '.gitmodules'))) return false;
  if (!existsSync(join(dir, '.git'))) throw new NotAWorktreeError(dir);
  await runGit({
    ...opts,
    args: ['-C', dir, 'submodule', 'update', '--init', '--recursive', '--quiet'],
    defaultTimeoutMs: SUBMODULE_TIMEOUT_MS,
  });
  return true;
}

async function assertCommitInMirror(mirror: string, commit: string, opts: GitOptions): Promise<void> {
  try {
    await runGit({
      ...opts,
      args: ['--git-dir', mirror, 'cat-file', '-e', `${commit}^{commit}`],
      defaultTimeoutMs: LOCAL_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof GitCommandError) throw new CommitNotInMirrorError(commit, mirror);
    throw err;
  }
}

async function worktreesOf(mirror: string, opts: GitOptions): Promise<string[]> {
  const result = await runGit({
    ...opts,
    args: ['--git-dir', mirror, 'worktree', 'list', '--porcelain', '-z'],
    defaultTimeoutMs: LOCAL_TIMEOUT_MS,
  });
  return result.stdout
    .split('\0')
    .filter((field) => field.startsWith('worktree '))
    .map((field) => resolve(field.slice('worktree '.length)));
}
