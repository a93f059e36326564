import { join } from 'node:path';
import { projectRoot } from '../../src/paths.js';

export { projectRoot };

/** Path of a file under test/fixtures, read from the source tree (fixtures are not compiled). */
export function fixturePath(...parts: string[]): string {
  return join(projectRoot, 'test', 'fixtures', ...parts);
}
