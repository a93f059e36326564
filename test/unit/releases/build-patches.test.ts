import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { BuildProfile } from '../../../src/compile/index.js';
import { buildPatches, PatchFileModeError } from '../../../src/releases/index.js';
import type { Upstream } from '../../../src/upstream/index.js';

/** qpswatch builds as root: a patch another user could rewrite would be code root compiles. */
describe('the patches of a build are checked before they are hashed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-patches-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const upstreamWith = (path: string): Upstream => ({ name: 'demo', patches: [path] }) as unknown as Upstream;
  const profile = { source: 'config/build-profiles/demo.yaml', patches: [] } as unknown as BuildProfile;

  test('a patch writable by others is refused in one line naming it, who lists it and the fix', async () => {
    const patch = join(dir, 'open.patch');
    writeFileSync(patch, 'diff --git a/x b/x\n');
    chmodSync(patch, 0o666);
    await assert.rejects(buildPatches(upstreamWith(patch), profile), (err: Error) => {
      assert.ok(err instanceof PatchFileModeError);
      assert.equal(
        err.message,
        `patch ${patch} (listed by upstream "demo") is writable by other users (mode 0666): any of them ` +
          `could change what qpswatch runs or reads as root; chmod go-w ${patch}`,
      );
      return true;
    });
  });

  test('a patch only its owner may write is hashed', async () => {
    const patch = join(dir, 'closed.patch');
    writeFileSync(patch, 'diff --git a/x b/x\n');
    chmodSync(patch, 0o644);
    const [hashed] = await buildPatches(upstreamWith(patch), profile);
    assert.match(hashed?.sha256 ?? '', /^[0-9a-f]{64}$/);
  });
});
