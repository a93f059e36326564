import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { projectRoot } from '../helpers/paths.js';

/**
 * The rooms of src/, highest first (docs/architecture.md). A room may import rooms below it, never above, and only
 * through their index.ts. The files at the top of src/ (paths.ts, errors.ts) are shared by all.
 */
const ROOMS = [
  'cli',
  'daemon',
  'bisect',
  'checks',
  'releases',
  'views',
  'session',
  'upstream',
  'compile',
  'server',
  'suite',
  'sampling',
  'instructions',
  'profile',
  'analysis',
  'store',
  'notify',
  'metrics',
  'report',
  'config',
  'trust',
  'version',
  'exec',
  'log',
  'model',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  return [
    ...readFileSync(file, 'utf8').matchAll(/^(?:(?:import|export)[^'"]*from\s+|import\s+)'(\.{1,2}\/[^']+)'/gm),
  ].map((m) => m[1]!);
}

/** The files of src/ each file imports (type-only imports too), by path relative to src/, .ts for .js. */
function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    graph.set(
      relative(src, file),
      importsOf(file).map((spec) => relative(src, join(file, '..', spec)).replace(/\.js$/, '.ts')),
    );
  }
  return graph;
}

/**
 * The import cycles a depth-first walk meets, each as the path that closes it (a.ts -> b.ts -> a.ts); none only when
 * there is none.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      cycles.push([...path.slice(at), file].join(' -> '));
      return;
    }
    if (done.has(file) || !graph.has(file)) return;
    path.push(file);
    for (const next of graph.get(file)!) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}

test('rooms import only rooms below them, through their index', () => {
  const src = join(projectRoot, 'src');
  const problems: string[] = [];
  for (const file of sourceFiles(src)) {
    const [room] = relative(src, file).split('/');
    if (!ROOMS.includes(room!)) continue;
    for (const spec of importsOf(file)) {
      const target = relative(src, join(file, '..', spec)).split('/');
      const other = target[0]!;
      if (other === room || !ROOMS.includes(other)) continue;
      if (ROOMS.indexOf(other) < ROOMS.indexOf(room!))
        problems.push(`${relative(src, file)} imports ${spec}: ${room} may not import ${other}, which sits above it`);
      if (target.slice(1).join('/') !== 'index.js')
        problems.push(`${relative(src, file)} imports ${spec}: go through ${other}/index.ts`);
    }
  }
  assert.deepEqual(problems, []);
});

test('no file of src imports itself through others: no import cycle, even of types only', () => {
  assert.deepEqual(importCycles(importGraph(join(projectRoot, 'src'))), []);
});

test('the cycle check finds a cycle of two and one of three, and passes a diamond', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
  assert.deepEqual(importCycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'] })), ['a.ts -> b.ts -> a.ts']);
  assert.deepEqual(importCycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'] })), [
    'a.ts -> b.ts -> c.ts -> a.ts',
  ]);
  assert.deepEqual(
    importCycles(graph({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['d.ts'], 'c.ts': ['d.ts'], 'd.ts': [] })),
    [],
  );
});

test('the vocabulary room (model) is at the bottom: it imports no other file of src', () => {
  assert.equal(ROOMS.at(-1), 'model');
  const src = join(projectRoot, 'src');
  const outside = sourceFiles(join(src, 'model')).flatMap((file) =>
    importsOf(file)
      .filter((spec) => !relative(src, join(file, '..', spec)).startsWith('model/'))
      .map((spec) => `${relative(src, file)} imports ${spec}`),
  );
  assert.deepEqual(outside, []);
});

test('every folder under src is a known room', () => {
  const src = join(projectRoot, 'src');
  const folders = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
  assert.deepEqual(
    folders.filter((f) => !ROOMS.includes(f)),
    [],
  );
});

test('docs/architecture.md lists every room, in the order of the arrows, and no folder src lacks', () => {
  const src = join(projectRoot, 'src');
  const folders = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
  const doc = readFileSync(join(projectRoot, 'docs', 'architecture.md'), 'utf8');
  const table = [...doc.matchAll(/^\| ([a-z]+)\/ \| /gm)].map((m) => m[1]!);
  assert.deepEqual(table, ROOMS);
  assert.deepEqual([...folders].sort(), [...ROOMS].sort());
});

test('only the exec room starts child processes', () => {
  const src = join(projectRoot, 'src');
  const offenders = sourceFiles(src).filter(
    (file) =>
      !relative(src, file).startsWith('exec/') && /from\s+'(node:)?child_process'/.test(readFileSync(file, 'utf8')),
  );
  assert.deepEqual(
    offenders.map((f) => relative(src, f)),
    [],
  );
});

test('only the cli edge reads process.argv, and only cli and the default environment of exec read process.env', () => {
  const src = join(projectRoot, 'src');
  const problems: string[] = [];
  for (const file of sourceFiles(src)) {
    const path = relative(src, file);
    const text = readFileSync(file, 'utf8');
    if (/process\.argv/.test(text) && path !== 'cli/run.ts') problems.push(`${path} reads process.argv`);
    if (/process\.env\b/.test(text) && !path.startsWith('cli/') && path !== 'exec/run.ts')
      problems.push(`${path} reads process.env`);
  }
  assert.deepEqual(problems, []);
});
