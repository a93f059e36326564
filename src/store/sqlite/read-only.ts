import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreReadOnlyError } from '../errors.js';

const WRITE_CODES = /^(SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_IOERR|SQLITE_PERM|EROFS|EACCES|EPERM)/;

/**
 * A write or an open for writing that failed because the store cannot be written, as the error people can act on:
 * its file system is mounted read-only, or this user may not write the file or its folder (SQLite also needs the
 * folder, for its -wal and -shm files). undefined for any other failure. SQLite only says "attempt to write a
 * readonly database" or "unable to open database file", so the cause is found by asking the kernel.
 */
export function readOnlyError(path: string, error: unknown): StoreReadOnlyError | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !WRITE_CODES.test(code)) return undefined;
  for (const target of existsSync(path) ? [path, dirname(path)] : [dirname(path)]) {
    let denied: string | undefined;
    try {
      accessSync(target, constants.W_OK);
    } catch (err) {
      denied = (err as NodeJS.ErrnoException).code;
    }
    if (denied === 'EROFS')
      return new StoreReadOnlyError(
        path,
        `the file system of ${target} is mounted read-only (EROFS): remount it read-write ` +
          `(mount -o remount,rw), or move state_dir to a writable disk`,
        { cause: error },
      );
    if (denied !== undefined)
      return new StoreReadOnlyError(
        path,
        `user uid ${process.getuid?.() ?? '?'} may not write ${target} (${denied}, ${ownerAndMode(target)}): ` +
          "run as the store's owner (the service's is qpswatch), or give this user write access",
        { cause: error },
      );
  }
  return undefined;
}

function ownerAndMode(path: string): string {
  const s = statSync(path);
  return `owner uid ${s.uid}, mode ${(s.mode & 0o7777).toString(8).padStart(4, '0')}`;
}
