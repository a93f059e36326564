import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Writes a whole file so that no other user can redirect the write, even in a folder they may write (an --output
 * in /tmp, an outbox folder): the data goes to a new file in the target's own folder, created O_EXCL|O_NOFOLLOW under
 * a random name (nothing planted there is ever opened or followed), and is then renamed over the target (rename
 * replaces a link or file at the target; it never writes through one). Readers see the old file or the new one.
 */
export function writeFileSafely(path: string, data: string | Uint8Array, mode = 0o640): void {
  const target = resolve(path);
  const tmp = join(dirname(target), `.qpswatch-${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
