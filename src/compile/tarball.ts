import { chmod, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ExecError, ExecNotFoundError, run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { parseTarballName, type Flavor, type Version } from '../version/index.js';
import { BuildToolMissingError, TarballUnpackError } from './errors.js';

const UNPACK_TIMEOUT_MS = 20 * 60 * 1000;

export interface UnpackedTarball {
  /** <targetsDir>/<flavor>-<version>: the server's basedir (bin/, share/, lib/ ...). */
  readonly basedir: string;
  readonly flavor: Flavor;
  readonly version: Version;
  /** False when it was unpacked already and nothing ran. */
  readonly unpacked: boolean;
}

interface UnpackRecord {
  readonly tarball: string;
  readonly unpackedAt: string;
}

/**
 * Unpacks an official binary tarball into <targetsDir>/<flavor>-<version>/, once: a marker beside the folder,
 * written last, says it is complete; a folder without it (an interrupted unpack) is unpacked again.
 */
export async function unpackTarball(
  tarballPath: string,
  targetsDir: string,
  opts: { signal?: AbortSignal; log: Logger },
): Promise<UnpackedTarball> {
  const tarball = resolve(tarballPath);
  const { flavor, version } = parseTarballName(tarball);
  const basedir = join(resolve(targetsDir), `${flavor}-${version.text}`);
  const marker = `${basedir}.unpacked.json`;
  if (await isUnpacked(marker, basedir)) return { basedir, flavor, version, unpacked: false };

  await rm(marker, { force: true });
  await unpackInto(tarball, basedir, opts);
  const record: UnpackRecord = { tarball, unpackedAt: new Date().toISOString() };
  await writeFile(marker, JSON.stringify(record, null, 2) + '\n');
  return { basedir, flavor, version, unpacked: true };
}

/**
 * Unpacks a tarball's one top folder into `dest` (replaced if it exists): into a partial folder beside it first,
 * renamed when tar is done, so `dest` is never half there. GNU tar finds the compression from the file itself.
 */
export async function unpackInto(
  tarball: string,
  dest: string,
  opts: {
    signal?: AbortSignal;
    log?: Logger;
    logFile?: string;
    /** What the tarball's one folder should hold, for the message when it held nothing. */
    holds?: string;
  },
): Promise<void> {
  const partial = join(dirname(dest), `.${basename(dest)}.partial`);
  await rm(dest, { recursive: true, force: true });
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  opts.log?.child({ component: 'build' }).info({ tarball, dest }, 'unpacking tarball');
  await untar(tarball, partial, opts);
  await clearSetIdBits(partial);
  const entries = await readdir(partial);
  if (entries.length === 0) {
    await rm(partial, { recursive: true, force: true });
    throw new TarballUnpackError(
      tarball,
      [],
      'nothing left after removing the top folder: an official tarball holds ' +
        (opts.holds ?? 'one folder with bin/ in it'),
    );
  }
  await rename(partial, dest);
}

/**
 * tar run as root keeps a file's setuid and setgid bits (it restores modes in full for root): a tarball's setuid
 * file would then run as root for every local user. Nothing qpswatch runs needs them, so they are cleared on
 * everything unpacked; symlinks are skipped (chmod would follow them out of the folder).
 */
async function clearSetIdBits(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true })) {
    const path = join(dir, entry);
    const { mode } = await lstat(path);
    if ((mode & 0o6000) !== 0 && !isSymlink(mode)) await chmod(path, mode & 0o1777);
  }
}

function isSymlink(mode: number): boolean {
  return (mode & 0o170000) === 0o120000;
}

async function isUnpacked(marker: string, basedir: string): Promise<boolean> {
  const text = await readFile(marker, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  return (await readdir(basedir).catch(() => [])).length > 0;
}

/** GNU tar finds the compression (gzip, xz, zstd) from the file itself; the top folder of the tarball is dropped. */
async function untar(
  tarball: string,
  into: string,
  { signal, log, logFile }: { signal?: AbortSignal; log?: Logger; logFile?: string },
): Promise<void> {
  const argv = ['tar', '-x', '-f', tarball, '-C', into, '--strip-components=1', '--no-same-owner'];
  try {
    await run({
      argv,
      timeoutMs: UNPACK_TIMEOUT_MS,
      ...(log !== undefined ? { log } : {}),
      ...(signal !== undefined ? { signal } : {}),
      ...(logFile !== undefined ? { logFile } : {}),
    });
  } catch (err) {
    await rm(into, { recursive: true, force: true });
    if (err instanceof ExecNotFoundError) throw new BuildToolMissingError('tar', 'tar');
    if (err instanceof ExecError) throw new TarballUnpackError(tarball, err.tail.slice(-3), 'tar could not unpack it');
    throw err;
  }
}
