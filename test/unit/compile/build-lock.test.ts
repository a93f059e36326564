import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

test('a dead build\'s cmake is stopped and its lock released; a live build\'s is left alone', async () => {
  mkdirSync(join(cache, 'locks'));
  const dead = cmakeIn(join(cache, 'worktrees', 'key-dead'));
  writeFileSync(join(cache, 'locks', 'build-key-dead.lock'), JSON.stringify({ pid: await deadPid(), startedAt: new Date().toISOString() }));
  const live = cmakeIn(join(cache, 'worktrees', 'key-live'));
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Held (flock) as a running `qpswatch build` holds it: a second open of the file, even in this process, finds it held.
  const held = tryPidLock(join(cache, 'locks', 'build-key-live.lock'), { holds: 'the build of "live"' });
  assert.ok('lock' in held);

  const warnings: string[] = [];
  const cleaned = await stopDeadBuilds(cache, pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }));

  assert.deepEqual(cleaned, ['key-dead']);
  for (let i = 0; i < 50 && processAlive(dead.pid!); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(processAlive(dead.pid!), false, 'the dead build\'s cmake is stopped');
  assert.equal(processAlive(live.pid!), true, 'the live build is left running');
  assert.equal(existsSync(join(cache, 'locks', 'build-key-dead.lock')), false, 'the stale lock is released');
  assert.equal(existsSync(join(cache, 'locks', 'build-key-live.lock')), true);
  assert.ok(warnings.some((w) => w.includes('left cmake running')), warnings.join('\n'));
  assert.match(readFileSync(join(cache, 'locks', 'build-key-live.lock'), 'utf8'), /the build of \\"live\\"/, 'the live build keeps its lock file as it was');
  held.lock.release();
});

test('no locks folder: nothing to do', async () => {
  assert.deepEqual(await stopDeadBuilds(join(cache, 'nowhere'), pino({ level: 'silent' })), []);
});
