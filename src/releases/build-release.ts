import { join, resolve } from 'node:path';
import {
  acquireBuildLock,
  BuildFailedError,
  buildKey,
  buildPathsFor,
  compilerVersion,
  ensureBuild,
  loadBuildProfile,
  profileFor,
  readInstallRecord,
  stopLeftoverBuild,
  type BuildProfile,
  type BuildProgress,
  type EnsureBuildResult,
} from '../compile/index.js';
import type { Config } from '../config/index.js';
import { describeHolder, type PidLockHolder } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { WorkProgress } from '../model/index.js';
import { buildProgressReporter, lastBuildSeconds } from './build-progress.js';
import { applyBuildPatches, buildPatches, type BuildPatch } from './build-patches.js';
import type { BuildRecord, ReleaseRecord, ReleaseStore } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { parseVersion } from '../version/index.js';
import { releaseTree } from './release-tree.js';
import { worktreeDirFor } from './worktrees.js';

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
  /** host_name when the store is shared (mysql), else '': builds stay per host (buildKey's host). */
  buildHost: string;
  /** install_build_packages: a build profile's missing Debian packages are installed with apt-get. */
  installPackages: boolean;
}

export function buildSettings(config: Config): BuildSettings {
  return {
    buildProfilesDir: config.build_profiles_dir,
    cacheDir: config.cache_dir,
    stateDir: config.state_dir,
    minFreeBytes: config.min_free_bytes,
    buildHost: config.store_backend === 'mysql' ? config.host_name : '',
    installPackages: config.install_build_packages,
  };
}

export interface BuildDeps {
  settings: BuildSettings;
  store: ReleaseStore;
  log: Logger;
  signal: AbortSignal;
  /**
   * Takes the host for the build, given what it builds (a build by hand: the host lock, waiting for a benchmark or
   * another build to end); left out when the caller holds the host already (the daemon).
   */
  takeHost?: (holds: string) => Promise<{ release(): void }>;
  /** Told how far the build is as it runs (the daemon's status and metrics). */
  onWorkProgress?: (work: WorkProgress) => void;
}

/**
 * Builds one release unless its key (commit, profile hash, patches, compiler) was built already, or failed and no
 * retry was asked for. A git upstream's commit is checked out from the mirror by id, never by tag name: tags are data;
 * a source upstream's tarball is downloaded, verified and unpacked, and its sha256 (the first 40 hex digits, as the
 * release row keeps it) stands for the commit. The build profile is the upstream's unless another is named (a build
 * variant, TAG@PROFILE), resolved for the release's version (profileFor); the upstream's patches and then the
 * profile's are applied to the tree before cmake.
 */
export async function buildRelease(
  release: ReleaseRecord,
  upstream: Upstream,
  deps: BuildDeps,
  retry = false,
  buildProfile = upstream.buildProfile,
): Promise<BuildOutcome> {
  const { settings, log } = deps;
  const keyed = await keyBuild(release.commit, upstream, buildProfile, deps, release.version);
  const { key } = keyed;
  const before = await knownOutcome(release, key, deps, retry, false);
  if (before !== undefined) return before;
  // One build of a key at a time: a second one waits (the host, then the key), then finds it built, or failed.
  const host = await deps.takeHost?.(`the build of ${JSON.stringify(release.tag)} (key ${key})`);
  try {
    const onWait = (holder: PidLockHolder): void =>
      log.info({ tag: release.tag, key, holderPid: holder.pid }, `waiting for ${describeHolder(holder)}`);
    const lock = await acquireBuildLock({
      cacheDir: settings.cacheDir,
      key,
      tag: release.tag,
      signal: deps.signal,
      onWait,
    });
    try {
      // Another build of the key may have finished while this one waited: built is done, failed is its verdict.
      const meanwhile = await knownOutcome(release, key, deps, retry, true);
      if (meanwhile !== undefined) return meanwhile;
      await stopLeftoverBuild(worktreeDirFor(settings.cacheDir, key), log);
      return await buildNow(release, upstream, keyed, deps);
    } finally {
      lock.release();
    }
  } finally {
    host?.release();
  }
}

/** What the store says of the key when nothing needs to run: built (and installed), or failed and no retry. */
async function knownOutcome(
  release: ReleaseRecord,
  key: string,
  deps: BuildDeps,
  retry: boolean,
  waited: boolean,
): Promise<BuildOutcome | undefined> {
  const { settings, store, log } = deps;
  const known = await store.getBuild(key);
  // The folders state_dir and the key make, never the stored ones: whoever could write the store would choose them.
  const { installDir, logFile } = buildPathsFor(settings.stateDir, key);
  const base = { release, key, installDir, logFile: known === undefined ? '' : logFile };
  // `qpswatch prune` deletes installs that are not kept; the store still says built, the install marker is gone.
  const pruned = known?.state === 'built' && (await readInstallRecord(settings.stateDir, key)) === undefined;
  const stored = known?.installDir ?? installDir;
  // Said once, at the look before the build lock; the look after it (waited) finds the same row.
  if (pruned && !waited && resolve(stored) !== installDir)
    log.warn(
      { tag: release.tag, key, storedInstallDir: stored },
      `build ${key} of ${JSON.stringify(release.tag)}: the store names the install folder ` +
        `${JSON.stringify(stored)}, not ${installDir} (state_dir and the build key): qpswatch never runs ` +
        'a path the store names; building it here',
    );
  else if (pruned && !waited)
    log.info(
      { tag: release.tag, key },
      'built before, but not installed on this host (pruned here, or built by another host of the fleet): building it',
    );
  if (!pruned && known?.state === 'built') {
    log.info(
      { tag: release.tag, key },
      waited
        ? 'built by the build waited for; nothing to do'
        : 'already built: the same commit, profile and compiler were built before; nothing to do',
    );
    return { ...base, status: 'already-built', failureLines: [] };
  }
  if (known?.state === 'failed' && !retry) {
    log.info({ tag: release.tag, key }, 'build failed before with this key; not retried (qpswatch build --retry TAG)');
    return { ...base, status: 'failed-before', failureLines: known.failureLines };
  }
  return undefined;
}

/** A commit's build key with what went into it: the profile, its patches, the compiler's version. */
export interface KeyedProfile {
  profile: BuildProfile;
  key: string;
  compiler: string;
  patches: readonly BuildPatch[];
}

/**
 * The build key of a commit (or a source tarball's sha256) with the profile as the release's version uses it: an
 * override for its versions changes the flags, environment and patches, and so the key.
 */
export async function keyBuild(
  commit: string,
  upstream: Upstream,
  buildProfile: string,
  { settings, log }: Pick<BuildDeps, 'settings' | 'log'>,
  version: string,
): Promise<KeyedProfile> {
  const loaded = await loadBuildProfile(buildProfile, settings.buildProfilesDir);
  const profile = profileFor(loaded, { flavor: upstream.flavor, version: parseVersion(version) });
  const patches = await buildPatches(upstream, profile);
  const compiler = await compilerVersion(profile, log);
  const key = buildKey({
    commit,
    profile,
    compilerVersion: compiler,
    patches: patches.map((p) => p.sha256),
    host: settings.buildHost,
  });
  return { profile, key, compiler, patches };
}

/** A patch that did not apply (its one line), or the compiled install and how long it took. */
export type CompileOutcome = { refused: string } | { result: EnsureBuildResult; seconds: number };

/**
 * Applies the build's patches to the checked-out worktree, then compiles and installs it (ensureBuild). A patch that
 * does not apply fails this build alone, like a compile error: its one line is returned as `refused`.
 */
export async function patchAndCompile(
  worktree: string,
  label: string,
  { profile, key, patches }: KeyedProfile,
  deps: Pick<BuildDeps, 'settings' | 'signal' | 'log'> & { onProgress?: (p: BuildProgress) => void },
): Promise<CompileOutcome> {
  const { settings, signal, log } = deps;
  const logFile = buildPathsFor(settings.stateDir, key).logFile;
  const refused = await applyBuildPatches({ worktree, tag: label, patches, logFile, signal, log });
  if (refused !== undefined) return { refused };
  const started = Date.now();
  const result = await ensureBuild({
    stateDir: settings.stateDir,
    cacheDir: settings.cacheDir,
    key,
    worktree,
    profile,
    minFreeBytes: settings.minFreeBytes,
    installPackages: settings.installPackages,
    signal,
    log,
    ...(deps.onProgress !== undefined ? { onProgress: deps.onProgress } : {}),
  });
  return { result, seconds: (Date.now() - started) / 1000 };
}

async function buildNow(
  release: ReleaseRecord,
  upstream: Upstream,
  keyed: KeyedProfile,
  deps: BuildDeps,
): Promise<BuildOutcome> {
  const { settings, store, log, signal } = deps;
  const { profile, key, compiler } = keyed;
  const worktree = worktreeDirFor(settings.cacheDir, key);
  const tree = releaseTree(release, upstream, { ...settings, signal, log });
  let record: BuildRecord | undefined;
  try {
    await tree.checkout(worktree);
    const paths = {
      installDir: join(settings.stateDir, 'builds', key, 'install'),
      logFile: buildPathsFor(settings.stateDir, key).logFile,
    };
    const report = deps.onWorkProgress;
    // Read before this build's row exists: the series' last build is an earlier one.
    const progress =
      report === undefined
        ? undefined
        : buildProgressReporter(release.tag, await lastBuildSeconds(store, release), report);
    record = await store.startBuild({
      releaseId: release.id,
      buildKey: key,
      profile: profile.name,
      compiler,
      ...paths,
      pid: process.pid,
    });
    const compiled = await patchAndCompile(worktree, release.tag, keyed, {
      ...deps,
      onProgress: (p) => {
        // Every [n/m] line of a compile is one event: only the steps are logged.
        if (p.event !== 'progress') log.info({ tag: release.tag, ...p }, 'build progress');
        progress?.(p);
      },
    });
    if ('refused' in compiled) {
      const failed = await store.failBuild(record.id, [compiled.refused]);
      log.error({ tag: release.tag, key, phase: 'patch', lines: failed.failureLines }, 'build failed');
      return {
        status: 'failed',
        release,
        key,
        installDir: failed.installDir,
        logFile: failed.logFile,
        failureLines: failed.failureLines,
      };
    }
    const { result, seconds } = compiled;
    await store.finishBuild(record.id);
    log.info({ tag: release.tag, key, seconds, installDir: result.installDir }, 'built');
    return {
      status: 'built',
      release,
      key,
      installDir: result.installDir,
      logFile: result.logFile,
      failureLines: [],
      seconds,
    };
  } catch (err) {
    // Stopped on purpose (SIGTERM, Ctrl-C): not a failure of the release. The row stays unfinished, and the next
    // build of this key replaces it instead of saying "failed before".
    if (signal.aborted) throw err;
    if (record !== undefined && !(err instanceof BuildFailedError))
      await store.failBuild(record.id, [err instanceof Error ? err.message : String(err)]);
    if (!(err instanceof BuildFailedError) || record === undefined) throw err;
    const { failure } = err;
    const failed = await store.failBuild(
      record.id,
      failure.failureLines.length > 0 ? failure.failureLines : failure.lines,
    );
    log.error({ tag: release.tag, key, phase: failure.phase, lines: failed.failureLines }, 'build failed');
    return {
      status: 'failed',
      release,
      key,
      installDir: failed.installDir,
      logFile: failed.logFile,
      failureLines: failed.failureLines,
    };
  } finally {
    await tree.remove(worktree).catch((e: unknown) => log.warn({ worktree, error: String(e) }, 'worktree not removed'));
  }
}
