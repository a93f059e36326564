import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DiskSpaceError } from './errors.js';

export interface FreeSpace {
  /** The folder that was measured: the given one, or its nearest existing parent. */
  readonly dir: string;
  readonly freeBytes: number;
}

/** Free bytes for an unprivileged writer (f_bavail), on the file system that holds `dir` or would hold it. */
export async function freeSpace(dir: string): Promise<FreeSpace> {
  let at = resolve(dir);
  for (;;) {
    try {
      const s = await statfs(at);
      return { dir: at, freeBytes: s.bavail * s.bsize };
    } catch (err) {
      const parent = dirname(at);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) throw err;
      at = parent;
    }
  }
}

/**
 * Refuses to start a build that would fill the disk: a full disk in the middle of a MariaDB build (10+ GB with
 * debug info) fails late and can take the store down with it.
 */
export async function checkFreeSpace(dir: string, minBytes: number): Promise<FreeSpace> {
  if (!Number.isFinite(minBytes) || minBytes < 0)
    throw new TypeError(`checkFreeSpace: minBytes must be a finite number >= 0, got ${minBytes}`);
  const free = await freeSpace(dir);
  if (free.freeBytes < minBytes) {
    throw new DiskSpaceError(
      free.dir,
      free.freeBytes,
      minBytes,
      `not enough free disk space in ${free.dir}: ` +
        `${describeBytes(free.freeBytes)} free, ${describeBytes(minBytes)} ` +
        `needed to build; ` +
        (`free some space (\`qpswatch prune\` deletes old installed builds) or ` +
          `lower the minimum free space for builds (min_free_bytes)`),
    );
  }
  return free;
}

/** "12.3 GiB (13207024435 bytes)": readable and exact. */
export function describeBytes(bytes: number): string {
  // BigInt prints every digit: 2 ** 60 as a number would print as 1152921504606847000.
  return `${formatBytes(bytes)} (${BigInt(Math.trunc(bytes))} bytes)`;
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) throw new TypeError(`formatBytes: not a byte count: ${bytes}`);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.trunc(bytes)} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
