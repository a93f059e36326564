import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkTrustedFolder, type TrustSubject } from './trusted-path.js';

/**
 * Writes a whole file so that no other user can redirect the write, even in a shared sticky folder (an --output in
 * /tmp): the target's folder is checked first (trust: a folder another user owns, or could swap, is refused), the data
 * goes to a new file in that folder, created O_EXCL|O_NOFOLLOW under a random name (nothing planted there is ever
 * opened or followed), and is then renamed over the target (rename replaces a link or file at the target; it never
 * writes through one). Readers see the old file or the new one.
 */
export function writeFileSafely(
  path: string,
  data: string | Uint8Array,
  mode = 0o640,
  folder: TrustSubject = { what: 'output folder', elsewhere: 'write into a folder of your own' },
): void {
  const target = resolve(path);
  checkTrustedFolder(dirname(target), folder, { stickyOk: true });
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
