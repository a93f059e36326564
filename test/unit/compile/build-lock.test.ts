import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { pino } from 'pino';
import { stopDeadBuilds } from '../../../src/compile/index.js';
import { processAlive, tryPidLock } from '../../../src/exec/index.js';

/**
 * A daemon killed with SIGKILL in the middle of a build leaves cmake running in the key's worktree, in a process group
 * of its own. The next start takes over the build's stale lock and stops that group; a build whose holder lives is
 * left alone with its lock.
 */
const cache = mkdtempSync('/tmp/qpsw-buildlock-');
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.pid !== undefined && processAlive(c.pid)) process.kill(-c.pid, 'SIGKILL');
  rmSync(cache, { recursive: true, force: true });
});

/** A stand-in for a build: cmake sleeping in the worktree, leading its own process group as exec starts it. */
function cmakeIn(worktree: string): ChildProcess {
  mkdirSync(worktree, { recursive: true });
  const child = spawn('cmake', ['-E', 'sleep', '60'], { cwd: worktree, detached: true, stdio: 'ignore' });
  children.push(child);
  return child;
}

async function deadPid(): Promise<number> {
  const gone = spawn('true');
  await new Promise((resolve) => gone.on('exit', resolve));
  return gone.pid!;
}

test("a dead build's cmake is stopped and its lock released; a live build's is left alone", async () => {
  mkdirSync(join(cache, 'locks'));
  const dead = cmakeIn(join(cache, 'worktrees', 'key-dead'));
  writeFileSync(
    join(cache, 'locks', 'build-key-dead.lock'),
    JSON.stringify({ pid: await deadPid(), startedAt: new Date().toISOString() }),
  );
  const live = cmakeIn(join(cache, 'worktrees', 'key-live'));
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Held (flock) as a running `qpswatch build` holds it: a second open of the file, even in this process, finds it
  // held.
  const held = tryPidLock(join(cache, 'locks', 'build-key-live.lock'), { holds: 'the build of "live"' });
  assert.ok('lock' in held);

  const warnings: string[] = [];
  const cleaned = await stopDeadBuilds(
    cache,
    pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }),
  );

  assert.deepEqual(cleaned, ['key-dead']);
  for (let i = 0; i < 50 && processAlive(dead.pid!); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(processAlive(dead.pid!), false, "the dead build's cmake is stopped");
  assert.equal(processAlive(live.pid!), true, 'the live build is left running');
  assert.equal(existsSync(join(cache, 'locks', 'build-key-dead.lock')), false, 'the stale lock is released');
  assert.equal(existsSync(join(cache, 'locks', 'build-key-live.lock')), true);
  assert.ok(
    warnings.some((w) => w.includes('left cmake running')),
    warnings.join('\n'),
  );
  assert.match(
    readFileSync(join(cache, 'locks', 'build-key-live.lock'), 'utf8'),
    /the build of \\"live\\"/,
    'the live build keeps its lock file as it was',
  );
  held.lock.release();
});

const STOP_DEAD_BUILDS = fileURLToPath(new URL('../../fixtures/compile/stop-dead-builds.js', import.meta.url));

test(
  "a live root build's lock is left alone by the service's start (here as nobody); a dead one's is taken",
  { skip: process.getuid?.() === 0 ? false : 'needs root to act as two users' },
  () => {
    // The service's cache folder: its own (nobody stands for qpswatch), and root's `qpswatch build` writes in it too.
    const serviceCache = mkdtempSync('/tmp/qpsw-buildlock-service-');
    try {
      chmodSync(serviceCache, 0o755);
      mkdirSync(join(serviceCache, 'locks'));
      chownSync(serviceCache, 65534, 65534);
      chownSync(join(serviceCache, 'locks'), 65534, 65534);
      const live = join(serviceCache, 'locks', 'build-key-root.lock');
      const held = tryPidLock(live, { holds: 'the build of "root\'s"' });
      assert.ok('lock' in held);
      // A root build killed with SIGKILL left this one: root's file, that nobody holds.
      const dead = join(serviceCache, 'locks', 'build-key-killed.lock');
      writeFileSync(dead, JSON.stringify({ pid: 999_999, startedAt: '2026-01-01T00:00:00.000Z' }));
      const text = readFileSync(live, 'utf8');
      const result = spawnSync(process.execPath, [STOP_DEAD_BUILDS, serviceCache], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), [], 'no build was left running in a worktree');
      assert.equal(readFileSync(live, 'utf8'), text, 'the live build keeps its lock file');
      assert.equal(statSync(live).uid, 0);
      assert.equal(existsSync(dead), false, "the dead build's lock is taken and released");
      held.lock.release();
      assert.equal(existsSync(live), false);
    } finally {
      rmSync(serviceCache, { recursive: true, force: true });
    }
  },
);

test('no locks folder: nothing to do', async () => {
  assert.deepEqual(await stopDeadBuilds(join(cache, 'nowhere'), pino({ level: 'silent' })), []);
});
