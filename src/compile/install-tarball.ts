import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { urlWithoutCredentials, type Logger } from '../log/index.js';
import { buildPathsFor, markInstallComplete, readInstallRecord, type BuildPaths } from './build-paths.js';
import { unpackInto } from './tarball.js';

/**
 * The build key of a tarball: the first 16 hex digits of its sha256, so one file is one install. In a store several
 * hosts share, `host` (their host_name) makes it one install per host, as buildKey's host does for builds.
 */
export function tarballKey(sha256: string, host = ''): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new TypeError(`a sha256 is 64 lower-case hex digits, got "${sha256}"`);
  if (host === '') return sha256.slice(0, 16);
  // The first 40 digits, as the store keeps a tarball release's commit: discovery's key and the file's agree.
  return createHash('sha256')
    .update(`${sha256.slice(0, 40)}\u0000${host}`)
    .digest('hex')
    .slice(0, 16);
}

export interface InstallTarballOptions {
  /** The folder holding builds/<key>/ (state_dir for releases, a cache folder for compare's tarball targets). */
  root: string;
  /** A verified file: its sha256 was checked (downloadFile) or computed (fileSha256). */
  tarball: string;
  sha256: string;
  /** Where it came from, for the marker; any user part of it is left out there. */
  url: string;
  signal?: AbortSignal;
  log?: Logger;
}

/**
 * Unpacks a verified tarball into the layout of a build: <root>/builds/<key>/install, with the install marker
 * written last (so a half-unpacked folder is unpacked again) and tar's output in its unpack.log. An install whose
 * marker is there is used as it is.
 */
export async function installTarball(
  opts: InstallTarballOptions,
): Promise<{ paths: BuildPaths; key: string; unpacked: boolean }> {
  const key = tarballKey(opts.sha256);
  const paths = buildPathsFor(opts.root, key);
  if ((await readInstallRecord(opts.root, key)) !== undefined) return { paths, key, unpacked: false };
  await mkdir(paths.root, { recursive: true });
  await rm(paths.marker, { force: true });
  const started = Date.now();
  await unpackInto(opts.tarball, paths.installDir, {
    logFile: unpackLogFor(paths),
    ...(opts.log !== undefined ? { log: opts.log } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  await markInstallComplete(paths, {
    key,
    profile: 'tarball',
    tarball: { url: urlWithoutCredentials(opts.url), sha256: opts.sha256 },
    finishedAt: new Date().toISOString(),
    durationsMs: { unpack: Date.now() - started },
  });
  return { paths, key, unpacked: true };
}

/** tar's output of an unpack: beside install/, where a build keeps build.log. */
export function unpackLogFor(paths: BuildPaths): string {
  return paths.logFile.replace(/build\.log$/, 'unpack.log');
}

/** The sha256 of a local file, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
