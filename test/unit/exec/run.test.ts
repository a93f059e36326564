import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ExecError, ExecNotFoundError, ExecTimeoutError, defaultEnv, run, start } from '../../../src/exec/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-exec-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Alive means running: a zombie waiting for its reaper has already stopped. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('exec.run', () => {
  test('passes arguments as data: shell syntax is never interpreted', async () => {
    const marker = join(dir, 'pwned');
    const hostile = `$(touch ${marker}); \`touch ${marker}\`; --x`;
    const result = await run({ argv: ['printf', '%s', hostile] });
    assert.equal(result.stdout, hostile);
    assert.equal(existsSync(marker), false);
  });

  test('gives the child only the environment it is handed', async () => {
    process.env['QPSWATCH_TEST_SECRET'] = 'hunter2';
    try {
      const result = await run({ argv: ['env'] });
      assert.doesNotMatch(result.stdout, /hunter2/);
      assert.match(result.stdout, /^LANG=C\.UTF-8$/m);
      const explicit = await run({ argv: ['env'], env: { ...defaultEnv(), ONLY_THIS: 'yes' } });
      assert.match(explicit.stdout, /^ONLY_THIS=yes$/m);
    } finally {
      delete process.env['QPSWATCH_TEST_SECRET'];
    }
  });

  test('a non-zero exit throws ExecError with the exit code and the last lines', async () => {
    const err = await run({ argv: ['sh', '-c', 'echo first; echo second >&2; exit 3'] }).catch((e: unknown) => e);
    assert.ok(err instanceof ExecError);
    assert.equal(err.exitCode, 3);
    assert.deepEqual(err.tail, ['first', 'second']);
    assert.match(err.message, /exited with code 3: second/);
  });

  test('allowFailure resolves with the exit code', async () => {
    const result = await run({ argv: ['sh', '-c', 'exit 4'], allowFailure: true });
    assert.equal(result.exitCode, 4);
  });

  test('a missing program throws ExecNotFoundError naming it', async () => {
    const err = await run({ argv: ['/nonexistent/qpswatch-no-such-binary'] }).catch((e: unknown) => e);
    assert.ok(err instanceof ExecNotFoundError);
    assert.equal(err.program, '/nonexistent/qpswatch-no-such-binary');
  });

  test('writes output to the log file as well', async () => {
    const logFile = join(dir, 'child.log');
    await run({ argv: ['sh', '-c', 'echo to-out; echo to-err >&2'], logFile });
    const text = readFileSync(logFile, 'utf8');
    assert.match(text, /to-out/);
    assert.match(text, /to-err/);
  });

  test('keeps only the last lines in the tail', async () => {
    const result = await run({ argv: ['seq', '1', '100'], tailLines: 3 });
    assert.deepEqual(result.tail, ['98', '99', '100']);
    assert.equal(result.stdout.split('\n').length, 101);
  });

  test('a timeout escalates to SIGKILL and reaches the whole process group', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    // The child ignores SIGTERM and leaves a grandchild behind: both must be gone after the timeout.
    const script = `trap "" TERM; sleep 60 & echo $! > ${pidFile}; while true; do sleep 1; done`;
    const started = Date.now();
    const err = await run({ argv: ['sh', '-c', script], timeoutMs: 300, killGraceMs: 300 }).catch((e: unknown) => e);
    assert.ok(err instanceof ExecTimeoutError);
    assert.equal(err.signal, 'SIGKILL');
    assert.ok(Date.now() - started < 5000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(isAlive(grandchild), false);
  });
});

describe('exec.start', () => {
  test('stop() ends a running child with SIGTERM and is idempotent', async () => {
    const handle = start({ argv: ['sleep', '60'] });
    assert.ok(handle.pid > 0);
    const [first, second] = await Promise.all([handle.stop(1000), handle.stop(1000)]);
    assert.equal(first.signal, 'SIGTERM');
    assert.equal(second, first);
    assert.equal(isAlive(handle.pid), false);
    await assert.rejects(handle.exited, ExecError);
  });

  test('stop() of a program that never started resolves', async () => {
    const handle = start({ argv: ['/nonexistent/never-started'] });
    const result = await handle.stop(100);
    assert.equal(result.exitCode, null);
    await assert.rejects(handle.exited, ExecNotFoundError);
  });

  test('an abort signal stops the child', async () => {
    const controller = new AbortController();
    const handle = start({ argv: ['sleep', '60'], signal: controller.signal, allowFailure: true });
    controller.abort();
    const result = await handle.exited;
    assert.equal(result.signal, 'SIGTERM');
  });
});

describe('exec and abort signals', () => {
  test('an already aborted signal starts nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by SIGINT'));
    const marker = join(dir, 'ran');
    await assert.rejects(run({ argv: ['touch', marker], signal: controller.signal }), /stopped by SIGINT/);
    assert.equal(existsSync(marker), false);
  });

  test('a long-lived signal keeps no listener of a finished child', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 15; i++) await run({ argv: ['true'], signal: controller.signal });
    const { EventEmitter } = await import('node:events');
    assert.equal(EventEmitter.getEventListeners(controller.signal, 'abort').length, 0);
  });
});
