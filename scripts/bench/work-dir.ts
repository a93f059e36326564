import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A bench's own temp folder: under --dir when given, else /dev/shm where there is one (no disk in the figures). */
export function benchWorkDir(dirOption: string | undefined, prefix: string): string {
  return mkdtempSync(join(dirOption ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), prefix));
}
