import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { acquireHostLock, HostLockHeldError } from '../../../src/daemon/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-lock-forged-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a forged lock's holder text is data: its escape sequences never reach the message", () => {
  const path = join(dir, 'host.lock');
  // The lock is held for real (flock); its file's text is then replaced by a forged holder, as a hostile writer would.
  const held = acquireHostLock(path);
  try {
    writeFileSync(
      path,
      JSON.stringify({ pid: 1234, startedAt: '2026-03-01\u001b[2J', command: 'compare\u001b]0;owned\u0007\nrm -rf /' }),
    );
    assert.throws(
      () => acquireHostLock(path),
      (err: unknown) => {
        assert.ok(err instanceof HostLockHeldError);
        assert.doesNotMatch(err.message, /[\u0000-\u001f\u007f-\u009f]/);
        assert.match(err.message, /qpswatch compare\\x1b\]0;owned\\x07\\nrm -rf \/, started 2026-03-01\\x1b\[2J/);
        return true;
      },
    );
  } finally {
    held.release();
  }
});
