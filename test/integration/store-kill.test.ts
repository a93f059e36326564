import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.js';
import { fixturePath } from '../helpers/paths.js';

const fixtureCounters = 40;
/** The fixture's sessions name no runner (as before fleets): they are this host's, whatever its name. */
const RUNNER = 'this-host';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Follows the fixture's stdout: the session id, and the highest sample number it reported committed. */
function follow(child: ChildProcess) {
  const progress = { sessionId: 0, committed: 0 };
  let wanted = { count: 0, resolve: () => {} };
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const [word, number] = line.split(' ');
    if (word === 'session') progress.sessionId = Number(number);
    if (word === 'sample') progress.committed = Number(number);
    if (progress.committed >= wanted.count) wanted.resolve();
  });
  const closed = once(lines, 'close');
  const atLeast = (count: number) =>
    new Promise<void>((resolve, reject) => {
      wanted = { count, resolve };
      child.once('exit', (code, signal) => reject(new Error(`fixture exited early (code ${code}, signal ${signal})`)));
    });
  return { progress, atLeast, closed };
}

test('a session killed mid-way is found interrupted, keeps every committed sample, and never counts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-store-kill-'));
  const path = join(dir, 'state', 'qpswatch.sqlite');
  const storeUrl = new URL('../../src/store/index.js', import.meta.url).href;
  const child = spawn(process.execPath, [fixturePath('store', 'write-samples.mjs'), storeUrl, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const { progress, atLeast, closed } = follow(child);
  try {
    await atLeast(20);

    // While the writer runs, another process sees its session running and must not call it interrupted.
    const watcher = await openStore({ backend: 'sqlite', path });
    try {
      assert.equal((await watcher.getSession(progress.sessionId))?.state, 'running');
      assert.equal(await watcher.recoverInterrupted(RUNNER, isAlive), 0);
    } finally {
      await watcher.close();
    }

    // Killing right after a "sample n" line would land early in the next write; a time-based kill lands anywhere.
    await delay(50 + Math.random() * 50);
    child.kill('SIGKILL');
    const [, signal] = await exited;
    assert.equal(signal, 'SIGKILL');
    await closed; // every "sample n" line printed before the kill has been read

    const store = await openStore({ backend: 'sqlite', path });
    try {
      assert.equal(await store.recoverInterrupted(RUNNER, isAlive), 1);
      const session = await store.getSession(progress.sessionId);
      assert.equal(session?.state, 'interrupted');
      assert.equal(session?.pid, child.pid);

      const samples = await store.samplesForSession(progress.sessionId);
      // Printed after commit, so every reported sample is there; at most one more was committed but not yet reported.
      assert.ok(samples.length >= progress.committed, `${samples.length} samples, ${progress.committed} reported`);
      assert.ok(samples.length <= progress.committed + 1, `${samples.length} samples, ${progress.committed} reported`);
      assert.deepEqual(
        samples.map((s) => s.round),
        samples.map((_, i) => i + 1),
      );
      for (const sample of samples) {
        assert.equal(Object.keys(sample.dbCounters).length, fixtureCounters, `sample ${sample.round} is whole`);
        assert.equal(sample.host.round, sample.round);
      }
      assert.deepEqual(await store.completedSamples(progress.sessionId), []);
    } finally {
      await store.close();
    }

    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
