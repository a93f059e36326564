import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { BuildFailedError, buildKey, compilerVersion, ensureBuild, loadBuildProfile, readInstallRecord, type BuildProfile } from '../compile/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import type { BuildRecord, ReleaseRecord, ReleaseStore } from '../store/index.js';
import { addWorktree, removeWorktree, syncMirror, updateSubmodules, type Upstream } from '../upstream/index.js';

export type BuildStatus = 'built' | 'already-built' | 'failed' | 'failed-before';

export interface BuildOutcome {
  status: BuildStatus;
  release: ReleaseRecord;
  key: string;
  installDir: string;
  logFile: string;
  /** The last lines of the log of a failed build. */
  failureLines: readonly string[];
  seconds?: number;
}

/** What a build reads of the config (buildSettings). */
export interface BuildSettings {
  buildProfilesDir: string;
  /** Mirrors and worktrees live under it. */
  cacheDir: string;
  /** Installs and build logs live under builds/ in it. */
  stateDir: string;
  minFreeBytes: number;
}

export function buildSettings(config: Config): BuildSettings {
  return { buildProfilesDir: config.build_profiles_dir, cacheDir: config.cache_dir, stateDir: config.state_dir, minFreeBytes: config.min_free_bytes };
}

export interface BuildDeps {
  settings: BuildSettings;
  store: ReleaseStore;
  log: Logger;
  signal: AbortSignal;
}

/** One bare mirror per remote, named by a hash of it, so two upstreams on one remote share their objects. */
function mirrorDirFor(cacheDir: string, remote: string): string {
  return join(cacheDir, 'mirrors', createHash('sha256').update(remote).digest('hex').slice(0, 16));
}

/**
 * Builds one release unless its key (commit, profile hash, compiler) was built already, or failed and no retry was
 * asked for. The commit is checked out from the mirror by id, never by tag name: tags are data.
 */
export async function buildRelease(release: ReleaseRecord, upstream: Upstream, deps: BuildDeps, retry = false): Promise<BuildOutcome> {
  const { settings, store, log } = deps;
  const profile = await loadBuildProfile(upstream.buildProfile, settings.buildProfilesDir);
  const compiler = await compilerVersion(profile, log);
  const key = buildKey({ commit: release.commit, profile, compilerVersion: compiler });
  const known = await store.getBuild(key);
  const base = { release, key, installDir: known?.installDir ?? '', logFile: known?.logFile ?? '' };
  // `qpswatch prune` deletes installs that are not kept; the store still says built, the install marker is gone.
  const pruned = known?.state === 'built' && (await readInstallRecord(settings.stateDir, key)) === undefined;
  if (pruned) log.info({ tag: release.tag, key }, 'built before, but its install was pruned: building it again');
  else if (known?.state === 'built') {
    log.info({ tag: release.tag, key }, 'already built: the same commit, profile and compiler were built before; nothing to do');
    return { ...base, status: 'already-built', failureLines: [] };
  }
  if (known?.state === 'failed' && !retry) {
    log.info({ tag: release.tag, key }, 'build failed before with this key; not retried (qpswatch build --retry TAG)');
    return { ...base, status: 'failed-before', failureLines: known.failureLines };
  }
  return buildNow(release, upstream, { profile, key, compiler }, deps);
}

interface KeyedProfile {
  profile: BuildProfile;
  key: string;
  compiler: string;
}

async function buildNow(release: ReleaseRecord, upstream: Upstream, { profile, key, compiler }: KeyedProfile, deps: BuildDeps): Promise<BuildOutcome> {
  const { settings, store, log, signal } = deps;
  const mirror = mirrorDirFor(settings.cacheDir, upstream.remote);
  log.info({ tag: release.tag, remote: upstream.remote }, 'updating the mirror');
  await syncMirror(upstream.remote, mirror, { signal, log });
  const worktree = join(settings.cacheDir, 'worktrees', key);
  await addWorktree(mirror, release.commit, worktree, { signal, log });
  let record: BuildRecord | undefined;
  try {
    if (upstream.flavor === 'mariadb') await updateSubmodules(worktree, { signal, log });
    const paths = { installDir: join(settings.stateDir, 'builds', key, 'install'), logFile: join(settings.stateDir, 'builds', key, 'build.log') };
    record = await store.startBuild({ releaseId: release.id, buildKey: key, profile: profile.name, compiler, ...paths, pid: process.pid });
    const started = Date.now();
    const result = await ensureBuild({
      stateDir: settings.stateDir,
      cacheDir: settings.cacheDir,
      key,
      worktree,
      profile,
      minFreeBytes: settings.minFreeBytes,
      signal,
      log,
      onProgress: (p) => log.info({ tag: release.tag, ...p }, 'build progress'),
    });
    await store.finishBuild(record.id);
    const seconds = (Date.now() - started) / 1000;
    log.info({ tag: release.tag, key, seconds, installDir: result.installDir }, 'built');
    return { status: 'built', release, key, installDir: result.installDir, logFile: result.logFile, failureLines: [], seconds };
  } catch (err) {
    // Stopped on purpose (SIGTERM, Ctrl-C): not a failure of the release. The row stays unfinished, and the next
    // build of this key replaces it instead of saying "failed before".
    if (signal.aborted) throw err;
    if (record !== undefined && !(err instanceof BuildFailedError)) await store.failBuild(record.id, [err instanceof Error ? err.message : String(err)]);
    if (!(err instanceof BuildFailedError) || record === undefined) throw err;
    const { failure } = err;
    const failed = await store.failBuild(record.id, failure.failureLines.length > 0 ? failure.failureLines : failure.lines);
    log.error({ tag: release.tag, key, phase: failure.phase, lines: failed.failureLines }, 'build failed');
    return { status: 'failed', release, key, installDir: failed.installDir, logFile: failed.logFile, failureLines: failed.failureLines };
  } finally {
    await removeWorktree(mirror, worktree, { log }).catch((e: unknown) => log.warn({ worktree, error: String(e) }, 'worktree not removed'));
  }
}
