import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { acquireHostLock, HostLockHeldError, waitForHostLock } from '../../../src/daemon/index.js';
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
  if (child.exitCode !== null || child.signalCode !== null) return;
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
    assert.equal(
      processAlive(1, (processStartTicks(1) ?? 0) + 12345),
      false,
      'pid 1 with another start time is not the writer',
    );
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

describe('the host lock is held with flock: the kernel, not the text, says who holds it', () => {
  test('a lock written by this process holds its start ticks', () => {
    const path = lockPath();
    const lock = acquireHostLock(path);
    const content = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; startTicks: number };
    assert.deepEqual([content.pid, content.startTicks], [process.pid, processStartTicks(process.pid)]);
    lock.release();
    assert.equal(existsSync(path), false);
  });

  test('a holder in another process keeps its lock; once it is killed (SIGKILL) the lock is taken over', async () => {
    const path = lockPath();
    const holder = await holding(path);
    try {
      assert.throws(
        () => acquireHostLock(path),
        (err: unknown) => err instanceof HostLockHeldError && err.pid === holder.pid,
      );
    } finally {
      await stop(holder);
    }
    acquireHostLock(path).release();
  });

  test(
    'a file naming a live process (pid 1, this one) that nobody locks is ' + 'taken over: the text decides nothing',
    () => {
      for (const pid of [1, process.pid]) {
        const path = lockPath();
        writeFileSync(
          path,
          JSON.stringify({ pid, startedAt: new Date().toISOString(), startTicks: processStartTicks(pid) }),
        );
        const lock = acquireHostLock(path, { pid: 77_777 });
        assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, 77_777);
        lock.release();
      }
    },
  );

  test('six processes at a lock its holder left: exactly one takes it', async () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify({ pid: 999_999, startedAt: '2026-01-01T00:00:00.000Z' }));
    const racers = Array.from({ length: 6 }, () =>
      spawn(process.execPath, [TAKE_LOCK, path, '60000'], { stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    const lines = racers.map((child) => firstLine(child));
    try {
      const said = await Promise.all(lines);
      assert.equal(said.filter((line) => line === 'acquired').length, 1, said.join('\n'));
      assert.equal(said.filter((line) => line.startsWith('HostLockHeldError: ')).length, 5, said.join('\n'));
    } finally {
      await Promise.all(racers.map(stop));
    }
  });

  const root = process.getuid?.() === 0;
  describe('files of other users', { skip: root ? false : 'needs root to act as two users' }, () => {
    const sticky = join(dir, 'sticky');
    const asNobody = (path: string) =>
      spawnSync(process.execPath, [TAKE_LOCK, path], { uid: 65534, gid: 65534, encoding: 'utf8', timeout: 30_000 });

    test('setup: a sticky folder such as /run/lock', () => {
      chmodSync(dir, 0o755);
      mkdirSync(sticky);
      chmodSync(sticky, 0o1777);
    });

    test('root holds the lock: the service account (here nobody) finds it held, not stale, and leaves it', async () => {
      const path = join(sticky, 'held.lock');
      const holder = await holding(path);
      try {
        const result = asNobody(path);
        assert.equal(result.status, 2, result.stderr);
        assert.match(
          result.stdout,
          new RegExp(`^HostLockHeldError: host lock ${path} is held by pid ${holder.pid} \\(started `),
        );
        assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, holder.pid, 'the holder keeps its lock file');
      } finally {
        await stop(holder);
      }
    });

    test(
      'the service (here nobody) holds the lock: a root compare stops at ' + 'once, and the service keeps a valid lock',
      async () => {
        const path = join(sticky, 'service.lock');
        const daemon = spawn(process.execPath, [TAKE_LOCK, path, '60000'], {
          uid: 65534,
          gid: 65534,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        try {
          assert.equal(await firstLine(daemon), 'acquired');
          const before = readFileSync(path, 'utf8');
          await assert.rejects(
            waitForHostLock(path, {
              command: 'compare',
              holds: 'a compare session',
              serviceUid: 65534,
              log: pino({ level: 'silent' }),
            }),
            (err: unknown) => err instanceof HostLockHeldError && err.pid === daemon.pid && err.command === undefined,
          );
          assert.equal(readFileSync(path, 'utf8'), before, 'the lock file is as the service wrote it');
          assert.equal(statSync(path).mode & 0o7777, 0o644);
          assert.equal(daemon.exitCode, null, 'the service runs on');
          // The service's own view: its lock is held (by itself), not stale.
          const again = asNobody(path);
          assert.match(again.stdout, new RegExp(`^HostLockHeldError: host lock ${path} is held by pid ${daemon.pid} `));
        } finally {
          await stop(daemon);
        }
      },
    );

    test(
      "a file of root's that the service took over (it could not rewrite it) " + 'names no gone process as its holder',
      async () => {
        const path = join(sticky, 'left-by-root.lock');
        writeFileSync(
          path,
          JSON.stringify({
            pid: 999_999,
            startedAt: '2026-01-01T00:00:00.000Z',
            startTicks: 4242,
            command: 'compare',
            holds: 'a compare session',
          }),
        );
        const daemon = spawn(process.execPath, [TAKE_LOCK, path, '60000'], {
          uid: 65534,
          gid: 65534,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        try {
          assert.equal(await firstLine(daemon), 'acquired');
          assert.match(
            readFileSync(path, 'utf8'),
            /"pid":999999/,
            "root's file, which nobody may rewrite in a sticky folder",
          );
          assert.throws(
            () => acquireHostLock(path, { serviceUid: 65534 }),
            (err: unknown) =>
              err instanceof HostLockHeldError &&
              err.pid === 0 &&
              err.message ===
                `host lock ${path} is held by a process the file does not name (it ` +
                  `still names pid 999999, which is gone: the holder could not write ` +
                  `itself into another user's file): see which with sudo fuser -v ` +
                  `${path}; stop it, or set host_lock`,
          );
        } finally {
          await stop(daemon);
        }
      },
    );

    test('a lock file this user cannot read counts as held: one line naming its owner and how to check', () => {
      const path = join(sticky, 'unreadable.lock');
      writeFileSync(path, '');
      chmodSync(path, 0o600);
      const result = asNobody(path);
      assert.equal(result.status, 2, result.stderr);
      assert.equal(
        result.stdout,
        `HostLockUnreadableError: host lock ${path} cannot be read by this user ` +
          `(EACCES): it belongs to user root (uid 0), mode 0600, so it counts as ` +
          `held; ` +
          `see who holds it with sudo fuser -v ${path}, and if nothing does, remove it (sudo rm ${path})\n`,
      );
      assert.equal(readFileSync(path, 'utf8'), '', 'the file is left as it was');
    });
  });
});

/** The fixture holding the host lock at path for a minute, once it says so. */
async function holding(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [TAKE_LOCK, path, '60000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  assert.equal(await firstLine(child), 'acquired');
  return child;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    child.once('exit', () => resolve(text.trim()));
    child.once('error', reject);
  });
}
