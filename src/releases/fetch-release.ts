import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildPathsFor,
  checkFreeSpace,
  installTarball,
  readInstallRecord,
  tarballKey,
  unpackLogFor,
} from '../compile/index.js';
import { InputError } from '../errors.js';
import { checkCacheDir } from '../server/index.js';
import type { ReleaseRecord } from '../store/index.js';
import { downloadFile, locateTarball, tarballCommit, type Upstream } from '../upstream/index.js';
import { buildRelease, type BuildDeps, type BuildOutcome } from './build-release.js';

/** What the profile and compiler columns of a build row say for a release unpacked from the vendor's tarball. */
export const TARBALL_PROFILE = 'tarball';
const TARBALL_COMPILER = "none (the vendor's binary)";

/**
 * A release made ready to run: built from its tag (a git upstream; with `buildProfile`, that profile instead of the
 * upstream's), or downloaded from the index, verified and unpacked (a tarball upstream). Either way it ends as a
 * built install under state_dir/builds/<key>/install.
 */
export async function obtainRelease(
  release: ReleaseRecord,
  upstream: Upstream,
  deps: BuildDeps,
  retry = false,
  buildProfile?: string,
): Promise<BuildOutcome> {
  if (upstream.kind === 'tarball') {
    if (buildProfile !== undefined) throw new TarballVariantError(release.tag, buildProfile, upstream.name);
    return fetchRelease(release, upstream, deps);
  }
  return buildRelease(release, upstream, deps, retry, buildProfile ?? upstream.buildProfile);
}

/** TAG@PROFILE of a tarball upstream: its releases are the vendor's binaries, never built. */
export class TarballVariantError extends InputError {
  constructor(tag: string, buildProfile: string, upstream: string) {
    super(
      `${tag}@${buildProfile}: upstream ${JSON.stringify(upstream)} downloads ` +
        `the vendor's tarballs, so its releases have no build profile; name the ` +
        `tag alone`,
    );
  }
}

/**
 * Downloads a tarball release, checks its sha256 against the index, and unpacks it into builds/<key>/install (key:
 * its sha256), recorded as a build of the release. The index is read again first, for the URL and the whole
 * checksum (the store keeps the first 40 digits). A download cut short or with another checksum throws: it is never
 * unpacked, the build row is failed with the one line, and the daemon tries it again after the backoff.
 */
export async function fetchRelease(release: ReleaseRecord, upstream: Upstream, deps: BuildDeps): Promise<BuildOutcome> {
  const { settings, store, log, signal } = deps;
  // The key of the file discovery saw; a release whose index changed its checksum since gets the new one's below.
  // (The store keeps the sha256's first 40 digits as the commit; tarballKey reads no further.)
  let key = tarballKey(release.commit.padEnd(64, '0'), settings.buildHost);
  let paths = buildPathsFor(settings.stateDir, key);
  const base = { release, key, installDir: paths.installDir, logFile: unpackLogFor(paths), failureLines: [] };
  if (
    (await store.getBuild(key))?.state === 'built' &&
    (await readInstallRecord(settings.stateDir, key)) !== undefined
  ) {
    log.info(
      { tag: release.tag, key },
      'already unpacked: the same tarball (sha256) was installed before; nothing to do',
    );
    return { ...base, status: 'already-built' };
  }
  const host = await deps.takeHost?.(`the download of ${JSON.stringify(release.tag)} (key ${key})`);
  try {
    const file = await locateTarball(upstream, release.tag, { signal, log });
    // The index's checksum now is the one the file must have; the release row keeps the one discovery saw.
    if (tarballCommit(file.sha256) !== release.commit)
      log.warn(
        { tag: release.tag, sha256: file.sha256, discovered: release.commit },
        'the index gives this release another sha256 than at discovery: the file is checked against the new one',
      );
    key = tarballKey(file.sha256, settings.buildHost);
    paths = buildPathsFor(settings.stateDir, key);
    await checkFreeSpace(settings.stateDir, settings.minFreeBytes);
    const record = await store.startBuild({
      releaseId: release.id,
      buildKey: key,
      profile: TARBALL_PROFILE,
      compiler: TARBALL_COMPILER,
      installDir: paths.installDir,
      logFile: base.logFile,
      pid: process.pid,
    });
    await checkCacheDir(settings.cacheDir);
    const download = join(settings.cacheDir, 'downloads', key, file.fileName);
    const started = Date.now();
    try {
      await downloadFile(file.url, download, { sha256: file.sha256, signal, log });
      await installTarball({
        root: settings.stateDir,
        tarball: download,
        sha256: file.sha256,
        url: file.url,
        signal,
        log,
      });
      await store.finishBuild(record.id);
    } catch (err) {
      // Stopped on purpose: the row stays unfinished and the next attempt replaces it.
      if (!signal.aborted) await store.failBuild(record.id, [err instanceof Error ? err.message : String(err)]);
      throw err;
    } finally {
      // The install is what is kept; the tarball is fetched again only if the install is pruned.
      await rm(join(settings.cacheDir, 'downloads', key), { recursive: true, force: true });
    }
    const seconds = (Date.now() - started) / 1000;
    log.info({ tag: release.tag, key, seconds, installDir: paths.installDir }, 'tarball installed');
    return { ...base, key, installDir: paths.installDir, logFile: unpackLogFor(paths), status: 'built', seconds };
  } finally {
    host?.release();
  }
}
