import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeProfileFiles } from '../../../src/session/index.js';

const root = mkdtempSync(join(tmpdir(), 'qpswatch-profile-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

const side = (count: number) => ({
  tool: 'perf' as const,
  samples: count,
  stacks: [{ stack: 'main;fdatasync', count }],
});
const report = {
  title: 'Profile 1: insert.t1, durable (C) against relaxed (B)',
  baselineName: 'relaxed',
  candidateName: 'durable',
  baseline: side(10),
  candidate: side(20),
  grown: [],
};

test('flame graph and page are private files; a link left at their place is replaced, not followed', async () => {
  const stateDir = join(root, 'state');
  const outside = join(root, 'outside.txt');
  writeFileSync(outside, 'not qpswatch');
  // What an earlier store left under the same profile id, with a link where the SVG goes.
  mkdirSync(join(stateDir, 'profiles', '1'), { recursive: true, mode: 0o750 });
  symlinkSync(outside, join(stateDir, 'profiles', '1', 'flame-graph.svg'));
  const files = await writeProfileFiles(stateDir, 1, report);
  assert.equal(readFileSync(outside, 'utf8'), 'not qpswatch');
  assert.ok(lstatSync(files.svg).isFile());
  assert.match(readFileSync(files.svg, 'utf8'), /^<svg|<\?xml/);
  for (const file of [files.svg, files.html]) assert.equal(statSync(file).mode & 0o777, 0o640, file);
  assert.equal(statSync(join(stateDir, 'profiles', '1')).mode & 0o007, 0, 'no access for other users');
});
