import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { acquireHostLock, HostLockHeldError } from '../../../src/daemon/index.js';
import { processAlive, processStartTicks } from '../../../src/exec/index.js';

/** Real lock files and real processes: a lock is held only while the very process that wrote it runs. */
const dir = mkdtempSync(join(tmpdir(), 'qpsw-lock-live-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(dir, `host-${++n}.lock`);
const TAKE_LOCK = fileURLToPath(new URL('../../fixtures/daemon/take-host-lock.js', import.meta.url));

function sleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  return new Promise((resolve, reject) => child.once('spawn', () => resolve(child)).once('error', reject));
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('processAlive: a pid and its start time', () => {
  test('this process, with and without its start time; another start time is another process', () => {
    const ticks = processStartTicks(process.pid)!;
    assert.ok(Number.isSafeInteger(ticks) && ticks > 0);
    assert.equal(processAlive(process.pid), true);
    assert.equal(processAlive(process.pid, ticks), true);
    assert.equal(processAlive(process.pid, ticks + 1), false);
    assert.equal(processAlive(1, (processStartTicks(1) ?? 0) + 12345), false, 'pid 1 with another start time is not the writer');
  });

  test('a process that exited is not alive; pid 0 and negative pids never are', async () => {
    const child = await sleeper();
    const pid = child.pid!;
    assert.equal(processAlive(pid, processStartTicks(pid)), true);
    await stop(child);
    assert.equal(processAlive(pid), false);
    for (const pid of [0, -1, Number.NaN]) assert.equal(processAlive(pid), false);
  });
});

describe('the host lock judges its holder by pid and start time', () => {
  test('a lock written by this process holds its start ticks', () => {
    const path = lockPath();
    const lock = acquireHostLock(path);
    const content = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; startTicks: number };
    assert.deepEqual([content.pid, content.startTicks], [process.pid, processStartTicks(process.pid)]);
    lock.release();
    assert.equal(existsSync(path), false);
  });

  test('a live holder keeps its lock; once it is gone the lock is taken over', async () => {
    const path = lockPath();
    const child = await sleeper();
    try {
      writeFileSync(path, JSON.stringify({ pid: child.pid, startedAt: new Date().toISOString(), startTicks: processStartTicks(child.pid!) }));
      assert.throws(() => acquireHostLock(path), (err: unknown) => err instanceof HostLockHeldError && err.pid === child.pid);
    } finally {
      await stop(child);
    }
    acquireHostLock(path).release();
  });

  test('a reused pid is stale: pid 1 with another start time, and this pid with another one', () => {
    for (const pid of [1, process.pid]) {
      const path = lockPath();
      writeFileSync(path, JSON.stringify({ pid, startedAt: '2026-01-01T00:00:00.000Z', startTicks: (processStartTicks(pid) ?? 0) + 4242 }));
      const lock = acquireHostLock(path, { pid: 77_777 });
      assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 77_777);
      lock.release();
    }
  });

  test('a lock of an older qpswatch (no start ticks) names a process that started after it: stale', () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify({ pid: process.pid, startedAt: '2001-01-01T00:00:00.000Z' }));
    const lock = acquireHostLock(path, { pid: 77_777 });
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 77_777);
    lock.release();
  });

  test('a zero-byte or garbage lock is taken over', () => {
    for (const content of ['', '\0\0\0', 'garbage', '{"pid":0,"startedAt":"x"}']) {
      const path = lockPath();
      writeFileSync(path, content);
      acquireHostLock(path).release();
      assert.equal(existsSync(path), false);
    }
  });

  const root = process.getuid?.() === 0;
  test('a stale lock of another user in a sticky folder: one clear error naming the file, its owner and the fix', { skip: root ? false : 'needs root to act as two users' }, () => {
    chmodSync(dir, 0o755);
    const sticky = join(dir, 'sticky');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const path = join(sticky, 'qpswatch-host.lock');
    writeFileSync(path, '');
    // This process (root) made it; user nobody may not remove it from the sticky folder.
    const result = spawnSync(process.execPath, [TAKE_LOCK, path], { uid: 65534, gid: 65534, encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(
      result.stdout,
      `HostLockStuckError: host lock ${path} names no running qpswatch (the file is empty or not a qpswatch lock) but cannot be removed (EPERM): ` +
        `it belongs to user root (uid 0); remove it as root (sudo rm ${path}) or as its owner, or set host_lock to a file in a folder other users cannot write\n`,
    );
    assert.equal(readFileSync(path, 'utf8'), '', 'the file is left as it was');
  });
});
