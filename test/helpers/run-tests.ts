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

interface TestEnd {
  file?: string;
  nesting: number;
  details: { duration_ms: number };
}

/**
 * Each file's time: the sum of its top-level tests' durations (they run one after another within a file). Printed
 * after the summary, so the slow files of a CI run are named. Two files run at a time, so a shared file's time
 * includes its neighbour's load.
 */
class FileTimes {
  private readonly seconds = new Map<string, number>();

  ended(data: TestEnd): void {
    if (data.file === undefined || data.nesting !== 0) return;
    this.seconds.set(data.file, (this.seconds.get(data.file) ?? 0) + data.details.duration_ms / 1000);
  }

  slowest(count: number): string {
    const rows = [...this.seconds].sort((a, b) => b[1] - a[1]).slice(0, count);
    const lines = rows.map(([file, s]) => `#   ${s.toFixed(1).padStart(6)} s  ${relative(projectRoot, file)}`);
    return `# the slowest test files (the sum of their top-level tests):\n${lines.join('\n')}\n`;
  }
}

const args = process.argv.slice(2);
const listOnly = args.includes('--list');
const folders = args.filter((a) => a !== '--list');
const files = orderedTestFiles(folders.length > 0 ? folders : ['dist/test']);
if (listOnly) {
  for (const file of files) console.log(relative(projectRoot, file));
} else {
  const times = new FileTimes();
  const stream = run({ files, concurrency: 2 });
  stream.on('test:pass', (data: TestEnd) => times.ended(data));
  stream.on('test:fail', (data: TestEnd) => {
    process.exitCode = 1;
    times.ended(data);
  });
  stream
    .compose(new spec())
    .on('end', () => process.stdout.write(times.slowest(20)))
    .pipe(process.stdout, { end: false });
}
