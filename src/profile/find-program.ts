import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defaultEnv } from '../exec/index.js';

/** The absolute path of a program on PATH, as a shell would find it; undefined when there is none. */
export function findProgram(name: string, pathEnv: string = defaultEnv().PATH ?? ''): string | undefined {
  for (const dir of pathEnv.split(delimiter).filter((d) => d !== '')) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next folder of PATH.
    }
  }
  return undefined;
}
