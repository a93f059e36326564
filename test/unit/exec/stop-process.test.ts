import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import { pino } from 'pino';
import { processAlive, stopProcess } from '../../../src/exec/index.js';

/** A process that runs until stopped; with `ignoreTerm` it shrugs SIGTERM off, as a hung server would. */
function startLoop(ignoreTerm: boolean): Promise<ChildProcess> {
  const code =
    `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() ` + `=> {}, 1000); process.send?.('up');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  return new Promise((resolve, reject) => child.once('message', () => resolve(child)).once('error', reject));
}

function recordingLog(): { log: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  return {
    log: pino({ level: 'warn' }, { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) }),
    messages,
  };
}

test('SIGTERM stops a process that heeds it, with nothing logged', async () => {
  const child = await startLoop(false);
  const { log, messages } = recordingLog();
  assert.equal(await stopProcess(child.pid!, { graceMs: 5000 }, log), 'stopped');
  assert.equal(processAlive(child.pid!), false);
  assert.deepEqual(messages, []);
});

test('a process that ignores SIGTERM gets SIGKILL after the grace time, with a warning', async () => {
  const child = await startLoop(true);
  const { log, messages } = recordingLog();
  assert.equal(await stopProcess(child.pid!, { graceMs: 300 }, log), 'stopped');
  assert.equal(
    child.signalCode ?? (await new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)))),
    'SIGKILL',
  );
  assert.deepEqual(messages, ['the process ignored SIGTERM; sending SIGKILL']);
});

test('a process that is already gone counts as stopped', async () => {
  const child = await startLoop(false);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  assert.equal(await stopProcess(child.pid!, {}, recordingLog().log), 'stopped');
});
