import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../../../src/exec/index.js';
import { projectRoot } from '../../helpers/paths.js';

/**
 * A process that starts `sleep` through exec and prints its pid, then waits: the test kills that process with
 * SIGKILL, as a person or the OOM killer would kill a CLI compare, and looks for the sleep.
 */
async function startThenKill(dieWithParent: boolean): Promise<number> {
  const exec = join(projectRoot, 'dist', 'src', 'exec', 'index.js');
  const code =
    `const { start } = await import(${JSON.stringify(exec)});` +
    `const h = start({ argv: ['sleep', '300'], dieWithParent: ${dieWithParent} });` +
    `console.log(h.pid); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.setEncoding('utf8').once('data', (d: string) => resolve(Number(d.trim()))),
  );
  assert.ok(processAlive(pid), 'the child runs');
  parent.kill('SIGKILL');
  await new Promise((resolve) => parent.once('exit', resolve));
  return pid;
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!processAlive(pid)) return true;
    await sleep(50);
  }
  return false;
}

test('a child started with dieWithParent is killed when qpswatch is killed with SIGKILL', async () => {
  const pid = await startThenKill(true);
  assert.ok(await goneWithin(pid, 5000), `sleep (pid ${pid}) outlived its parent`);
});

test('one started without it runs on in its own process group (what the next command cleans up)', async () => {
  const pid = await startThenKill(false);
  try {
    await sleep(500);
    assert.ok(processAlive(pid));
  } finally {
    process.kill(-pid, 'SIGKILL');
  }
});
