import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { processAlive } from '../../../src/exec/index.js';
import { stopStrayProcesses } from '../../../src/server/index.js';
import { defaultSqlitePath, openStore, type Store } from '../../../src/store/index.js';
import { hostInput, sessionInput } from '../store/store-inputs.js';

/**
 * Real processes under a real state folder: stray-process cleanup stops what qpswatch started for a dead session
 * (here stand-ins named mariadbd and sysbench, started as exec starts children: leaders of their own process
 * group) and nothing else: not a person's `tail -f` of the session's error log, not a mariadbd in another
 * process group, not one of a live session, not one of another user.
 */
const root = mkdtempSync(join(tmpdir(), 'qpsw-stray-'));
const state = join(root, 'state');
const bin = join(root, 'bin');
const errorLog = join(state, 'work', 'session-7', 'baseline', 'mariadb-10.11.9', 'error.log');
const STOP_STRAYS = fileURLToPath(new URL('../../fixtures/server/stop-strays.js', import.meta.url));
const isRoot = process.getuid?.() === 0;
const children: ChildProcess[] = [];
let store: Store;
let liveSession = 0;

before(async () => {
  chmodSync(root, 0o755);
  mkdirSync(join(errorLog, '..'), { recursive: true });
  writeFileSync(errorLog, 'InnoDB: started\n');
  mkdirSync(bin);
  for (const program of ['mariadbd', 'sysbench']) symlinkSync(process.execPath, join(bin, program));
  store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(state) });
  liveSession = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
});

after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

/** A program that runs until stopped, with these arguments on its command line. */
function start(program: string, args: string[], options: SpawnOptions = {}): Promise<ChildProcess> {
  const argv = program === 'tail' ? args : ['-e', 'setInterval(() => {}, 1000)', '--', ...args];
  const child = spawn(program === 'tail' ? 'tail' : join(bin, program), argv, {
    stdio: 'ignore',
    detached: true,
    ...options,
  });
  children.push(child);
  return new Promise((resolve, reject) =>
    child.once('spawn', () => setTimeout(() => resolve(child), 200)).once('error', reject),
  );
}

/** A program started as a shell's job: the leader of its own group, in this process's session. */
function startAsJob(program: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(
    'perl',
    [
      '-e',
      'setpgrp(0, 0) or die; exec { $ARGV[0] } @ARGV',
      join(bin, program),
      '-e',
      'setInterval(() => {}, 1000)',
      '--',
      ...args,
    ],
    { stdio: 'ignore' },
  );
  children.push(child);
  return new Promise((resolve, reject) =>
    child.once('spawn', () => setTimeout(() => resolve(child), 300)).once('error', reject),
  );
}

const alive = (child: ChildProcess): boolean => processAlive(child.pid!);

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
const cnf = (session: number) =>
  `--defaults-file=${join(state, 'work', `session-${session}`, 'baseline', 'mariadb-10.11.9', 'my.cnf')}`;

describe('stray-process cleanup', () => {
  test("stops the dead session's server and sysbench, and leaves everything else running", async () => {
    const server = await start('mariadbd', [cnf(7)]);
    const sysbench = await start('sysbench', [
      'oltp_read_only',
      `--mysql-socket=${join(state, 'run', '7-b.sock')}`,
      'run',
    ]);
    const tail = await start('tail', ['-f', errorLog]);
    const inOtherGroup = await start('mariadbd', [cnf(7)], { detached: false });
    // A person's run from a shell: a job that leads its own group (perl's setpgrp, as job control does), in the
    // shell's session.
    const personsJob = await startAsJob('sysbench', [
      'oltp_read_only',
      `--mysql-socket=${join(state, 'run', '7-a.sock')}`,
      'run',
    ]);
    const ofLiveSession = await start('mariadbd', [cnf(liveSession)]);
    const otherUser = isRoot ? await start('mariadbd', [cnf(7)], { uid: 65534, gid: 65534 }) : undefined;

    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const stopped = await stopStrayProcesses({ stateDir: state, serverUser: '' }, store, log, { graceMs: 5000 });

    assert.deepEqual(stopped.map((p) => p.pid).sort(), [server.pid, sysbench.pid].sort());
    assert.deepEqual(stopped.map((p) => [p.sessionId, p.program]).sort(), [
      [7, 'mariadbd'],
      [7, 'sysbench'],
    ]);
    assert.equal(alive(server), false);
    assert.equal(alive(sysbench), false);
    assert.equal(alive(tail), true, "a person's tail -f of the session's error log survives");
    assert.equal(alive(inOtherGroup), true, 'a mariadbd that qpswatch did not start as a group leader survives');
    assert.equal(
      alive(personsJob),
      true,
      "a person's sysbench, a job leading its group in a shell's session, survives",
    );
    assert.equal(alive(ofLiveSession), true, 'a live session keeps its server');
    if (otherUser !== undefined) assert.equal(alive(otherUser), true, "another user's process is never touched");
    assert.equal(warnings.length, 2, warnings.join('\n'));
    for (const line of warnings) assert.equal((line.match(/"pid":/g) ?? []).length, 1, `one pid key per line: ${line}`);
    await Promise.all(
      [tail, inOtherGroup, personsJob, ofLiveSession, otherUser].map((c) => (c === undefined ? undefined : kill(c))),
    );
  });

  test(
    'a process it may not signal (EPERM) is given up on with a warning, at once',
    { skip: isRoot ? false : 'needs root to act as two users' },
    async () => {
      // Running as nobody with server_user root: the root-owned server is in scope, but nobody may not signal it.
      const server = await start('mariadbd', [cnf(7)]);
      const started = Date.now();
      const result = spawnSync(process.execPath, [STOP_STRAYS, state, 'root'], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        timeout: 30_000,
      });
      const elapsed = Date.now() - started;
      assert.equal(result.status, 0, result.stderr);
      const out = JSON.parse(result.stdout) as { found: number[]; stopped: boolean[]; warnings: string[] };
      assert.deepEqual(out.found, [server.pid]);
      assert.deepEqual(out.stopped, [false]);
      assert.deepEqual(out.warnings, [
        'not allowed to stop a stray process (EPERM): leaving it; stop it as its owner or as root',
      ]);
      assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
      assert.equal(alive(server), true);
      await kill(server);
    },
  );
});
