import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from '../log/index.js';
import {
  buildPathsFor,
  markInstallComplete,
  readInstallRecord,
  removeInstallMarker,
  type InstallRecord,
} from './build-paths.js';
import { buildWorktree, type BuildProgress } from './build-worktree.js';
import { checkFreeSpace } from './disk-guard.js';
import type { BuildProfile } from './profile.js';

export interface EnsureBuildOptions {
  readonly stateDir: string;
  readonly cacheDir: string;
  /** buildKey() of the worktree's commit, the profile and the compiler. */
  readonly key: string;
  readonly worktree: string;
  readonly profile: BuildProfile;
  /** Refuse to start below this much free space in the state directory (checkFreeSpace). */
  readonly minFreeBytes?: number;
  /** Keep the build folder after a good install; by default it goes (a MariaDB build folder is several GB). */
  readonly keepBuildDir?: boolean;
  /** install_build_packages: the profile's missing Debian packages are installed with apt-get. */
  readonly installPackages?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BuildProgress) => void;
  readonly log: Logger;
}

export interface EnsureBuildResult {
  readonly key: string;
  readonly installDir: string;
  readonly logFile: string;
  /** False when the key was installed already and nothing ran. */
  readonly built: boolean;
  readonly record: InstallRecord;
}

/** The build folder, inside the worktree: see ensureBuild. */
export const WORKTREE_BUILD_DIR = '.qpswatch-build';

/**
 * Installs the build of `key` under <state>/builds/<key>/install unless it is complete already. A folder without
 * the marker (a build that died half way) is built again: the install is redone from scratch, the build folder
 * is reused, so cmake and make pick up where they stopped.
 *
 * The build folder is <worktree>/.qpswatch-build: every release then sees its sources at the same relative path
 * ("../sql/handler.cc"), which is what lets ccache (base_dir = the worktree) serve one release's objects to the
 * next. With build folders beside the worktrees, the worktree's name would be part of every hashed path.
 */
export async function ensureBuild(opts: EnsureBuildOptions): Promise<EnsureBuildResult> {
  const paths = buildPathsFor(opts.stateDir, opts.key);
  const buildDir = join(resolve(opts.worktree), WORKTREE_BUILD_DIR);
  const done = await readInstallRecord(opts.stateDir, opts.key);
  if (done !== undefined)
    return { key: opts.key, installDir: paths.installDir, logFile: paths.logFile, built: false, record: done };
  if (opts.minFreeBytes !== undefined) await checkFreeSpace(opts.stateDir, opts.minFreeBytes);
  await removeInstallMarker(paths);
  opts.log
    .child({ component: 'build' })
    .info({ key: opts.key, worktree: opts.worktree, profile: opts.profile.name }, 'building');
  const result = await buildWorktree({
    worktree: opts.worktree,
    profile: opts.profile,
    buildDir,
    installDir: paths.installDir,
    logFile: paths.logFile,
    cacheDir: opts.cacheDir,
    log: opts.log,
    ...(opts.installPackages !== undefined ? { installPackages: opts.installPackages } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(opts.onProgress !== undefined ? { onProgress: opts.onProgress } : {}),
  });
  const record: InstallRecord = {
    key: opts.key,
    worktree: opts.worktree,
    profile: opts.profile.name,
    finishedAt: new Date().toISOString(),
    durationsMs: result.durationsMs,
  };
  if (opts.keepBuildDir !== true) await rm(buildDir, { recursive: true, force: true });
  await markInstallComplete(paths, record);
  return { key: opts.key, installDir: paths.installDir, logFile: paths.logFile, built: true, record };
}
