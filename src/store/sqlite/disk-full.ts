import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreDiskFullError } from '../errors.js';

/** Under this much free space, a failed write is put down to a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;
const DISK_CODES = /^(SQLITE_FULL|SQLITE_IOERR|ENOSPC)/;

/**
 * A write or an open that failed because the store's disk is full, as the error people can act on; undefined for
 * any other failure. SQLite says "database or disk is full" only for some writes, and "disk I/O error" when it
 * cannot even grow its WAL or shared-memory file, so the free space of the folder decides.
 */
export function diskFullError(path: string, error: unknown): StoreDiskFullError | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !DISK_CODES.test(code)) return undefined;
  const folder = dirname(path);
  let free: number;
  try {
    const fs = statfsSync(folder);
    free = fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
  return free < NEARLY_FULL_BYTES ? new StoreDiskFullError(path, folder, free, { cause: error }) : undefined;
}
