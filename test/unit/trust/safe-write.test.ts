import assert from 'node:assert/strict';
import {
  mkdirSync,
  lchownSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  chmodSync,
  chownSync,
  lstatSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { UntrustedPathError, writeFileSafely } from '../../../src/trust/index.js';

const dir = mkdtempSync('/tmp/qpsw-write-');
chmodSync(dir, 0o1777);
after(() => rmSync(dir, { recursive: true, force: true }));

test('a link planted at the target is replaced, never written through; nothing is left beside it', () => {
  const victim = join(dir, 'victim');
  writeFileSync(victim, 'precious\n');
  const out = join(dir, 'out.csv');
  symlinkSync(victim, out);
  if (process.getuid?.() === 0) lchownSync(out, 65534, 65534);
  // Links sprayed at every name a pid-based temporary file could have.
  for (let pid = process.pid - 5; pid <= process.pid + 5; pid++) symlinkSync(victim, `${out}.${pid}.tmp`);
  writeFileSafely(out, 'a,b\n');
  assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
  assert.equal(lstatSync(out).isFile(), true);
  assert.equal(readFileSync(out, 'utf8'), 'a,b\n');
  assert.equal(lstatSync(out).mode & 0o777 & 0o007, 0, 'nothing for other users');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('.qpswatch-')),
    [],
  );
});

test('a write that fails (a folder at the target) leaves no temporary file', () => {
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'folder', 'f'), '');
  assert.throws(() => writeFileSafely(join(dir, 'folder'), 'x'));
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('.qpswatch-')),
    [],
  );
});

test(
  "a folder of another user's is refused before anything is written in it",
  { skip: process.getuid?.() !== 0 },
  () => {
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs, 0o755);
    chownSync(theirs, 65534, 65534);
    assert.throws(
      () => writeFileSafely(join(theirs, 'out.csv'), 'a,b\n'),
      (err: unknown) =>
        err instanceof UntrustedPathError && /output folder .* belongs to user nobody/.test(err.message),
    );
    assert.deepEqual(readdirSync(theirs), []);
  },
);
