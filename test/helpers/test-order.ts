// Prints the compiled test files in the order scripts/test.sh hands them to the runner, one per line: the files that
// share the host first, so they run two at a time, then the ALONE ones (host-share.ts), which run one at a time.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runsAlone } from './host-share.js';
import { projectRoot } from './paths.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

const files = testFiles(join(projectRoot, 'dist', 'test'))
  .map((f) => relative(projectRoot, f))
  .sort();
for (const file of [...files.filter((f) => !runsAlone(f)), ...files.filter(runsAlone)]) console.log(file);
