import { InputError } from '../errors.js';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defaultEnv } from '../exec/index.js';

export class SysbenchMissingError extends InputError {
  constructor(readonly searched: readonly string[]) {
    super(`sysbench not found on PATH (${searched.join(':')}); install it: apt-get install sysbench`);
    this.name = new.target.name;
  }
}

/**
 * The absolute path of the sysbench program, looked up like a shell would, so a missing sysbench is
 * reported once with the fix instead of as a failed child process per test.
 */
export function findSysbench(pathEnv: string = defaultEnv().PATH ?? ''): string {
  const dirs = pathEnv.split(delimiter).filter((dir) => dir !== '');
  for (const dir of dirs) {
    const candidate = join(dir, 'sysbench');
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new SysbenchMissingError(dirs);
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
