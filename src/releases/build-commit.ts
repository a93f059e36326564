import { join } from 'node:path';
import { acquireBuildLock, BuildFailedError, stopLeftoverBuild } from '../compile/index.js';
import { removeWorktree, updateSubmodules, type Upstream } from '../upstream/index.js';
import { keyBuild, patchAndCompile, type BuildDeps } from './build-release.js';
import { addWorktreeRepairing, mirrorDirFor, worktreeDirFor } from './worktrees.js';

/** A commit that is not a release tag, to build (a bisection's midpoint). */
export interface CommitToBuild {
  readonly commit: string;
  /** How logs and failure lines name it, e.g. "a1b2c3d4e5f6 (bisect of mariadb-10.5.2)". */
  readonly label: string;
  /** The version the build profile is resolved for: the bisected release's, whose series the commit belongs to. */
  readonly version: string;
}

export interface CommitBuildOutcome {
  status: 'built' | 'already-built' | 'failed';
  key: string;
  installDir: string;
  logFile: string;
  /** The picked error lines of a failed build (compiler and cmake lines, or a patch that did not apply). */
  failureLines: readonly string[];
  seconds?: number;
}

/**
 * Builds one commit of an upstream's mirror with a build profile, keyed like a release (commit, profile, patches,
 * compiler) and installed under state_dir/builds/<key>/install. Unlike buildRelease it keeps no row in the store's
 * builds table: the commit is no release, and its install must never be taken for a tag's. The caller syncs the
 * mirror first and prunes the install when it is done with it.
 */
export async function buildCommit(
  target: CommitToBuild,
  upstream: Upstream,
  deps: Omit<BuildDeps, 'store' | 'takeHost'>,
  buildProfile = upstream.buildProfile,
): Promise<CommitBuildOutcome> {
  const { settings, log, signal } = deps;
  const keyed = await keyBuild(target.commit, upstream, buildProfile, deps, target.version);
  const { key } = keyed;
  const paths = {
    installDir: join(settings.stateDir, 'builds', key, 'install'),
    logFile: join(settings.stateDir, 'builds', key, 'build.log'),
  };
  const lock = await acquireBuildLock({ cacheDir: settings.cacheDir, key, tag: target.label, signal });
  const mirror = mirrorDirFor(settings.cacheDir, upstream.remote);
  const worktree = worktreeDirFor(settings.cacheDir, key);
  try {
    await stopLeftoverBuild(worktree, log);
    await addWorktreeRepairing(mirror, target.commit, worktree, { log, signal });
    if (upstream.flavor === 'mariadb') await updateSubmodules(worktree, { signal, log });
    const compiled = await patchAndCompile(worktree, target.label, keyed, deps);
    if ('refused' in compiled) return { status: 'failed', key, ...paths, failureLines: [compiled.refused] };
    const { result, seconds } = compiled;
    return { status: result.built ? 'built' : 'already-built', key, ...paths, failureLines: [], seconds };
  } catch (err) {
    if (signal.aborted || !(err instanceof BuildFailedError)) throw err;
    const { failure } = err;
    const failureLines = failure.failureLines.length > 0 ? failure.failureLines : failure.lines;
    log.error({ commit: target.commit, key, phase: failure.phase, lines: failureLines }, 'build of a commit failed');
    return { status: 'failed', key, ...paths, failureLines };
  } finally {
    await removeWorktree(mirror, worktree, { log }).catch((e: unknown) =>
      log.warn({ worktree, error: String(e) }, 'worktree not removed'),
    );
    lock.release();
  }
}
