import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './paths.js';

/** Every redo size the shipped profiles name, cut to this: large enough for a table of a few thousand rows. */
export const TEST_REDO_SIZE = '32M';

const REDO_OPTION = /^(\s*(?:innodb_log_file_size|innodb_redo_log_capacity):\s*)\S+/gm;

/**
 * A folder (for server_profiles_dir) of the shipped server profiles, each as shipped but for its redo log, cut to
 * 32M. A session copies each side's loaded datadir before every server start; with the shipped 512M redo log that is
 * a gigabyte written per sweep, and each server's start-up waits on the disk for it: a sweep of one 1-second test
 * took 9 s, and 6 s with 32M (81 s against 56 s for a session of 8 sweeps). Names and every other setting stay the
 * shipped ones, so reports and assertions read the same; server-profiles.test checks the shipped sizes themselves.
 *
 * Written under dist/test (build output, root's, 0755) at each call: two test files may call it at once, so each
 * file is written whole under a name of this process's and renamed into place.
 */
export function testServerProfilesDir(): string {
  const shipped = join(projectRoot, 'config', 'server-profiles');
  const dir = join(projectRoot, 'dist', 'test', 'server-profiles');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const name of readdirSync(shipped).filter((f) => f.endsWith('.yaml'))) {
    const text = readFileSync(join(shipped, name), 'utf8').replace(REDO_OPTION, `$1${TEST_REDO_SIZE}`);
    const partial = join(dir, `.${name}.${process.pid}`);
    writeFileSync(partial, text, { mode: 0o644 });
    renameSync(partial, join(dir, name));
  }
  return dir;
}
