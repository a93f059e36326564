import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pino } from 'pino';
import { acquireHostLock, HostLockError, HostLockHeldError, waitForHostLock } from '../../../src/daemon/index.js';
import { InputError } from '../../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(dir, `host-${++n}.lock`);
const at = () => new Date('2026-03-01T10:00:00.000Z');

test('a fresh lock is created with the pid and start time, and removed on release (twice is fine)', () => {
  const path = lockPath();
  const lock = acquireHostLock(path, { pid: 1234, now: at });
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { pid: 1234, startedAt: '2026-03-01T10:00:00.000Z' });
  lock.release();
  lock.release();
  assert.equal(existsSync(path), false);
});

test('a lock held by a live pid is a typed input error naming the path, the pid and the fix', () => {
  const path = lockPath();
  const first = acquireHostLock(path, { pid: 1234, now: at });
  assert.throws(
    () => acquireHostLock(path, { pid: 5678 }),
    (err: unknown) => {
      assert.ok(err instanceof HostLockHeldError);
      assert.ok(err instanceof InputError, 'the CLI prints it alone and exits 2');
      assert.equal(err.pid, 1234);
      assert.equal(
        err.message,
        `host lock ${path} is held by pid 1234 (started ` +
          `2026-03-01T10:00:00.000Z): another qpswatch daemon is benchmarking on ` +
          `this host; stop it (systemctl stop qpswatch) or set host_lock`,
      );
      return true;
    },
  );
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 1234, 'the holder keeps its lock');
  first.release();
});

test('a lock its holder left (its process died) is taken over, whatever its text', () => {
  for (const content of [
    JSON.stringify({ pid: 999_999, startedAt: '2026-01-01T00:00:00.000Z' }),
    '',
    'not json',
    '{"pid":"x"}',
  ]) {
    const path = lockPath();
    writeFileSync(path, content);
    const lock = acquireHostLock(path, { pid: 4321 });
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 4321);
    lock.release();
  }
});

test('release leaves alone a lock file that is no longer the one it locked', () => {
  const path = lockPath();
  const lock = acquireHostLock(path, { pid: 1111 });
  rmSync(path);
  writeFileSync(path, JSON.stringify({ pid: 2222, startedAt: '2026-03-01T11:00:00.000Z' }));
  lock.release();
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 2222);
});

test('a lock in a folder that does not exist: the folder is made (0755, as /run/qpswatch) and the lock taken', () => {
  const path = join(dir, 'missing', 'host.lock');
  const lock = acquireHostLock(path);
  try {
    assert.equal(statSync(join(dir, 'missing')).mode & 0o7777, 0o755);
  } finally {
    lock.release();
  }
});

test('a lock folder this user cannot make names the path and the option', () => {
  const path = join('/proc', 'qpswatch-no-such', 'host.lock');
  assert.throws(
    () => acquireHostLock(path),
    (err: unknown) =>
      err instanceof HostLockError &&
      err.message.startsWith(`host lock ${path} cannot be created (ENOENT)`) &&
      /set host_lock/.test(err.message),
  );
});

test(
  'a compare, check or build waits while another one holds the host, with ' + 'one progress line, then takes it',
  async () => {
    const path = lockPath();
    const silent = pino({ level: 'silent' });
    const compare = await waitForHostLock(path, {
      pid: 1234,
      now: at,
      command: 'compare',
      holds: 'a compare session ("a" against "b")',
      log: silent,
    });
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      { write: (line: string) => lines.push((JSON.parse(line) as { msg: string }).msg) },
    );
    const waiting = waitForHostLock(path, {
      pid: 5678,
      command: 'build',
      holds: 'the build of "x" (key 0123456789abcdef)',
      pollMs: 20,
      log,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    compare.release();
    const lock = await waiting;
    assert.deepEqual(lines, ['waiting for the host: a compare session ("a" against "b") by pid 1234']);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).command, 'build');
    lock.release();
  },
);

test(
  'a daemon holds the host for as long as it runs: a compare is refused ' + 'at once with the one-line error',
  async () => {
    const path = lockPath();
    const daemon = acquireHostLock(path, { pid: 1234, now: at });
    await assert.rejects(
      waitForHostLock(path, {
        pid: 5678,
        command: 'compare',
        holds: 'a compare session',
        log: pino({ level: 'silent' }),
      }),
      (err: unknown) => {
        assert.ok(err instanceof HostLockHeldError && err instanceof InputError);
        assert.match(
          err.message,
          /held by pid 1234 \(started 2026-03-01T10:00:00.000Z\): another qpswatch daemon is benchmarking on this host/,
        );
        return true;
      },
    );
    daemon.release();
  },
);

test('a daemon that finds a compare holding the host names it', async () => {
  const path = lockPath();
  const compare = await waitForHostLock(path, {
    pid: 1234,
    now: at,
    command: 'compare',
    holds: 'a compare session',
    log: pino({ level: 'silent' }),
  });
  assert.throws(
    () => acquireHostLock(path, { pid: 5678 }),
    (err: unknown) =>
      err instanceof HostLockHeldError &&
      err.message ===
        `host lock ${path} is held by pid 1234 (qpswatch compare, started ` +
          `2026-03-01T10:00:00.000Z): it is benchmarking or building on this ` +
          `host; wait for it to end, or set host_lock`,
  );
  compare.release();
});
