import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LockWaitAbortedError, tryPidLock, waitForPidLock, type PidLockHolder } from '../../../src/exec/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-pid-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(dir, `lock-${++n}`);
const alive = (pid: number) => pid === 1111;

test('the file names the holder, what it holds and its command; a live holder is returned, not taken over', () => {
  const path = lockPath();
  const first = tryPidLock(path, { pid: 1111, holds: 'the build of "x" (key 0123456789abcdef)', command: 'build', now: () => new Date('2026-03-01T10:00:00.000Z') });
  assert.ok('lock' in first);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { pid: 1111, startedAt: '2026-03-01T10:00:00.000Z', holds: 'the build of "x" (key 0123456789abcdef)', command: 'build' });
  const second = tryPidLock(path, { pid: 2222, isAlive: alive });
  assert.ok('holder' in second);
  assert.equal(second.holder.holds, 'the build of "x" (key 0123456789abcdef)');
  first.lock.release();
  assert.equal(existsSync(path), false);
});

test('a waiter says once whom it waits for, and takes the lock when the holder lets go', async () => {
  const path = lockPath();
  const first = tryPidLock(path, { pid: 1111, holds: 'a compare session' });
  assert.ok('lock' in first);
  const waited: PidLockHolder[] = [];
  const waiting = waitForPidLock(path, { pid: 2222, isAlive: alive, pollMs: 20, onWait: (h) => waited.push(h) });
  await new Promise((resolve) => setTimeout(resolve, 150));
  first.lock.release();
  const lock = await waiting;
  assert.deepEqual(waited.map((h) => `${h.holds} by ${h.pid}`), ['a compare session by 1111']);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 2222);
  lock.release();
});

test('a holder refused is thrown at once; an abort stops the wait with a typed error', async () => {
  const path = lockPath();
  const first = tryPidLock(path, { pid: 1111 });
  assert.ok('lock' in first);
  await assert.rejects(waitForPidLock(path, { pid: 2222, isAlive: alive, refuse: (h) => new Error(`held by ${h.pid}`) }), /held by 1111/);
  const controller = new AbortController();
  const waiting = waitForPidLock(path, { pid: 2222, isAlive: alive, pollMs: 20, signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stopped by SIGINT')), 50);
  await assert.rejects(waiting, (err: unknown) => err instanceof LockWaitAbortedError && err.holder.pid === 1111);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 1111, 'the holder keeps its lock');
  first.lock.release();
});
