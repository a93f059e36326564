import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from '../log/index.js';
import { GitCommandError, MirrorFolderError } from './errors.js';
import { runGit, type GitOptions } from './git.js';
import { gitRemote } from './git-credentials.js';
import { redactUrls } from './redact.js';
import { assertRemote } from './remote.js';

export interface SyncResult {
  readonly mirrorDir: string;
  /** True when this call made the mirror (the first, long fetch). */
  readonly created: boolean;
  readonly durationMs: number;
}

export interface MirrorOptions extends GitOptions {
  log: Logger;
}

const FETCH_TIMEOUT_MS = 2 * 60 * 60 * 1000;
const LOCAL_TIMEOUT_MS = 60_000;

/**
 * Keeps a bare repository holding every tag of the remote, for worktrees to check out from.
 *
 * Not `git clone --mirror`: its refspec is refs/*, which on GitHub brings every pull request's refs/pull/N/head.
 * Only tags are built, so only tags are fetched, forced (a moved tag must move here too) and pruned (a deleted tag
 * goes). The URL is given on each fetch, so a remote changed in the config takes effect at once; it is also stored as
 * origin, against which relative submodule URLs resolve. Neither holds the URL's user part: git gets that from its
 * environment (gitRemote), so the mirror's config and git's command line have no secret.
 */
export async function syncMirror(remote: string, mirrorDir: string, opts: MirrorOptions): Promise<SyncResult> {
  assertRemote(remote);
  const started = Date.now();
  const dir = resolve(mirrorDir);
  const created = await ensureBareRepository(dir, opts);
  const login = gitRemote(remote);
  await runGit({
    ...opts,
    args: ['--git-dir', dir, 'config', 'remote.origin.url', login.url],
    defaultTimeoutMs: LOCAL_TIMEOUT_MS,
  });
  await runGit({
    ...opts,
    args: [
      '--git-dir',
      dir,
      'fetch',
      '--prune',
      '--no-write-fetch-head',
      '--quiet',
      '--',
      login.url,
      '+refs/tags/*:refs/tags/*',
    ],
    remote,
    login,
    defaultTimeoutMs: FETCH_TIMEOUT_MS,
  });
  const durationMs = Date.now() - started;
  opts.log
    .child({ component: 'upstream' })
    .info({ remote: redactUrls(remote), mirrorDir: dir, created, durationMs }, 'mirror synced');
  return { mirrorDir: dir, created, durationMs };
}

/** Makes the bare repository when the folder is missing or empty; returns true when it did. */
async function ensureBareRepository(dir: string, opts: GitOptions): Promise<boolean> {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    await assertBareRepository(dir, opts);
    return false;
  }
  await mkdir(dir, { recursive: true });
  await runGit({ ...opts, args: ['init', '--bare', '--quiet', dir], defaultTimeoutMs: LOCAL_TIMEOUT_MS });
  return true;
}

/** --git-dir names the repository outright: git never walks up into a repository that happens to hold the folder. */
export async function assertBareRepository(dir: string, opts: GitOptions): Promise<void> {
  try {
    const result = await runGit({
      ...opts,
      args: ['--git-dir', dir, 'rev-parse', '--is-bare-repository'],
      defaultTimeoutMs: LOCAL_TIMEOUT_MS,
    });
    if (result.stdout.trim() === 'true') return;
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
  }
  throw new MirrorFolderError(dir);
}
