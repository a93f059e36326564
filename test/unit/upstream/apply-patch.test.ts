import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, applyReason, PatchApplyError } from '../../../src/upstream/index.js';
import { run } from '../../../src/exec/index.js';

// Real git on a scratch repository: applying a patch is a second's work.
let dir = '';
const PATCH = [
  '--- a/release.txt',
  '+++ b/release.txt',
  '@@ -1,2 +1,2 @@',
  ' version 1',
  '-durable no',
  '+durable yes',
  '',
].join('\n');

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qpsw-patch-'));
  await run({ argv: ['git', 'init', '--quiet', join(dir, 'tree')] });
  await writeFile(join(dir, 'good.patch'), PATCH);
  await writeFile(join(dir, 'bad.patch'), PATCH.replace('-durable no', '-durable maybe'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('applyPatch', () => {
  test('applies a patch to the files of a worktree', async () => {
    await writeFile(join(dir, 'tree', 'release.txt'), 'version 1\ndurable no\n');
    await applyPatch(join(dir, 'tree'), join(dir, 'good.patch'));
    assert.equal(await readFile(join(dir, 'tree', 'release.txt'), 'utf8'), 'version 1\ndurable yes\n');
  });

  test('an unpacked source tree, no repository, inside another one: the patch applies to the tree', async () => {
    // dir/tree is a repository; dir/tree/cache/worktrees/src is a plain folder inside it, as a source tarball's tree
    // is when cache_dir lies in a checkout: git apply takes the patch's paths relative to the folder it runs in.
    const src = join(dir, 'tree', 'cache', 'worktrees', 'src');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'release.txt'), 'version 1\ndurable no\n');
    await applyPatch(src, join(dir, 'good.patch'));
    assert.equal(await readFile(join(src, 'release.txt'), 'utf8'), 'version 1\ndurable yes\n');
    await rm(join(dir, 'tree', 'cache'), { recursive: true });
  });

  test("a patch that does not apply is a PatchApplyError with git's reason, and nothing is changed", async () => {
    await writeFile(join(dir, 'tree', 'release.txt'), 'version 1\ndurable no\n');
    await assert.rejects(applyPatch(join(dir, 'tree'), join(dir, 'bad.patch')), (err: unknown) => {
      assert.ok(err instanceof PatchApplyError, String(err));
      assert.equal(err.patch, join(dir, 'bad.patch'));
      assert.equal(err.reason, 'patch failed: release.txt:1; release.txt: patch does not apply');
      return true;
    });
    assert.equal(await readFile(join(dir, 'tree', 'release.txt'), 'utf8'), 'version 1\ndurable no\n');
  });
});

test("applyReason: git's error lines on one line, else its last line", () => {
  assert.equal(
    applyReason(['Checking patch x...', 'error: patch failed: x:3', 'error: x: patch does not apply']),
    'patch failed: x:3; x: patch does not apply',
  );
  assert.equal(
    applyReason(["fatal: can't open patch '/p': No such file or directory"]),
    "can't open patch '/p': No such file or directory",
  );
  assert.equal(applyReason(['', 'something odd', '']), 'something odd');
  assert.equal(applyReason([]), 'git apply failed without saying why');
});
