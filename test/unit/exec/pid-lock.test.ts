import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  LockFileRefusedError,
  LockWaitAbortedError,
  tryPidLock,
  waitForPidLock,
  type PidLockHolder,
} from '../../../src/exec/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-pid-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(dir, `lock-${++n}`);

// A second attempt in this same process opens the file again: a flock belongs to an open file description, so it
// finds the lock held exactly as another process would.

test('the file names the holder, what it holds and its command; a held lock is returned, not taken over', () => {
  const path = lockPath();
  const first = tryPidLock(path, {
    pid: 1111,
    holds: 'the build of "x" (key 0123456789abcdef)',
    command: 'build',
    now: () => new Date('2026-03-01T10:00:00.000Z'),
  });
  assert.ok('lock' in first);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
    pid: 1111,
    startedAt: '2026-03-01T10:00:00.000Z',
    holds: 'the build of "x" (key 0123456789abcdef)',
    command: 'build',
  });
  const second = tryPidLock(path, { pid: 2222 });
  assert.ok('holder' in second);
  assert.equal(second.holder.holds, 'the build of "x" (key 0123456789abcdef)');
  first.lock.release();
  assert.equal(existsSync(path), false);
});

test('the file is 0644 whatever the umask, so a reader of another user can say who holds it', () => {
  const path = lockPath();
  const umask = process.umask(0o077);
  try {
    const attempt = tryPidLock(path);
    assert.ok('lock' in attempt);
    assert.equal(statSync(path).mode & 0o7777, 0o644);
    attempt.lock.release();
  } finally {
    process.umask(umask);
  }
});

test('a file its holder left is taken: its text (pid 1, this very process, garbage) decides nothing', () => {
  for (const text of [
    JSON.stringify({ pid: 1, startedAt: '2026-01-01T00:00:00.000Z' }),
    JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }),
    '',
    'garbage',
  ]) {
    const path = lockPath();
    writeFileSync(path, text);
    const attempt = tryPidLock(path, { pid: 3333 });
    assert.ok('lock' in attempt, text);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 3333);
    attempt.lock.release();
  }
});

test('a waiter says once whom it waits for, and takes the lock when the holder lets go', async () => {
  const path = lockPath();
  const first = tryPidLock(path, { pid: 1111, holds: 'a compare session' });
  assert.ok('lock' in first);
  const waited: PidLockHolder[] = [];
  const waiting = waitForPidLock(path, { pid: 2222, pollMs: 20, onWait: (h) => waited.push(h) });
  await new Promise((resolve) => setTimeout(resolve, 150));
  first.lock.release();
  const lock = await waiting;
  assert.deepEqual(
    waited.map((h) => `${h.holds} by ${h.pid}`),
    ['a compare session by 1111'],
  );
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 2222);
  lock.release();
});

test('a holder refused is thrown at once; an abort stops the wait with a typed error', async () => {
  const path = lockPath();
  const first = tryPidLock(path, { pid: 1111 });
  assert.ok('lock' in first);
  await assert.rejects(
    waitForPidLock(path, { pid: 2222, refuse: (h) => new Error(`held by ${h.pid}`) }),
    /held by 1111/,
  );
  const controller = new AbortController();
  const waiting = waitForPidLock(path, { pid: 2222, pollMs: 20, signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stopped by SIGINT')), 50);
  await assert.rejects(waiting, (err: unknown) => err instanceof LockWaitAbortedError && err.holder.pid === 1111);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 1111, 'the holder keeps its lock');
  first.lock.release();
});

test('a symbolic link or a folder at the path is refused, and its target is left as it was', () => {
  const target = join(dir, 'target');
  writeFileSync(target, 'not a lock');
  chmodSync(target, 0o600);
  const link = lockPath();
  symlinkSync(target, link);
  assert.throws(
    () => tryPidLock(link),
    (err: unknown) =>
      err instanceof LockFileRefusedError &&
      err.message.startsWith(`lock file ${link} is a symbolic link (to ${target}), made by `) &&
      err.message.endsWith(': qpswatch never follows one'),
  );
  assert.equal(readFileSync(target, 'utf8'), 'not a lock');
  assert.equal(statSync(target).mode & 0o7777, 0o600);
  const folder = lockPath();
  mkdirSync(folder);
  assert.throws(() => tryPidLock(folder), LockFileRefusedError);
});
