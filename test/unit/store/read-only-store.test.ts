import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openStore, StoreReadOnlyError } from '../../../src/store/index.js';

const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'qpsw-ro-store-'));
const mount = join(dir, 'ro');
after(() => {
  spawnSync('umount', [mount]);
  rmSync(dir, { recursive: true, force: true });
});

test(
  'a store on a file system mounted read-only says so and how to fix it, not SQLite\'s "unable to open"',
  { skip: asRoot ? false : 'mounting a tmpfs needs root' },
  async () => {
    mkdirSync(mount);
    assert.equal(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0750', 'tmpfs', mount]).status, 0);
    const path = join(mount, 'qpswatch.sqlite');
    await (await openStore({ backend: 'sqlite', path })).close();
    assert.equal(spawnSync('mount', ['-o', 'remount,ro', mount]).status, 0);
    await assert.rejects(openStore({ backend: 'sqlite', path }), (err: unknown) => {
      assert.ok(err instanceof StoreReadOnlyError, String(err));
      assert.equal(
        err.message,
        `the store ${path} cannot be written: the file system of ${path} is mounted read-only (EROFS): remount it ` +
          'read-write (mount -o remount,rw), or move state_dir to a writable disk',
      );
      return true;
    });
    // Reading it still works: status and report need no write.
    await (await openStore({ backend: 'sqlite', path, readonly: true })).close();
  },
);
