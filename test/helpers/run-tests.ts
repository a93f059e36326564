// Runs test files two at a time in the order given here, and prints what `node --test --test-reporter=spec` prints,
// summary lines included. `node --test FILE...` sorts its files by name, which would scatter the files that hold the
// host alone (host-share.ts) between the shared ones: each of them then idles the second slot while it runs. Here the
// shared files run first, two at a time, and the ALONE ones last.
//
// Usage (scripts/test.sh, scripts/test-unit.sh): node --import ./dist/test/helpers/host-share-hook.js
//   dist/test/helpers/run-tests.js [--list] [FOLDER...]   (default: dist/test). The test processes inherit the
//   --import; --list prints the files in their order and runs nothing.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { runsAlone } from './host-share.js';
import { projectRoot } from './paths.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.js') ? [path] : [];
  });
}

/** Shared files first, then the ALONE ones, each part by name, so a run's order is the same every time. */
export function orderedTestFiles(folders: readonly string[]): string[] {
  const files = folders.flatMap((f) => testFiles(resolve(projectRoot, f))).sort();
  return [...files.filter((f) => !runsAlone(f)), ...files.filter(runsAlone)];
}

const args = process.argv.slice(2);
const listOnly = args.includes('--list');
const folders = args.filter((a) => a !== '--list');
const files = orderedTestFiles(folders.length > 0 ? folders : ['dist/test']);
if (listOnly) {
  for (const file of files) console.log(relative(projectRoot, file));
} else {
  run({ files, concurrency: 2 })
    .on('test:fail', () => (process.exitCode = 1))
    .compose(new spec())
    .pipe(process.stdout);
}
