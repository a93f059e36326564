import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ExecNotFoundError, ExecTimeoutError } from '../../../src/exec/index.js';
import { SysbenchOutputError, SysbenchRunError, prepareSysbench, runSysbench } from '../../../src/suite/index.js';
import { fixturePath } from '../../helpers/paths.js';

// fake-sysbench.sh prints the captured output named by --fixture= and exits with --exit=.
const sysbench = fixturePath('suite', 'fake-sysbench.sh');
const out = (name: string): string => `--fixture=${fixturePath('suite', name)}`;
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-run-sysbench-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('runSysbench', () => {
  test('returns the parsed report of a run that exits 0, and logs the output', async () => {
    const logFile = join(dir, 'ok.log');
    const result = await runSysbench([out('point-select-2-threads.out'), '/x/oltp_point_select.lua', 'run'], {
      sysbench,
      logFile,
    });
    assert.equal(result.qps, 29444.25);
    assert.equal(result.threads, 2);
    assert.match(readFileSync(logFile, 'utf8'), /queries: +88379/);
  });

  test('a non-zero exit is a SysbenchRunError with the exit code and the last lines', async () => {
    await assert.rejects(
      runSysbench([out('fatal-table-missing.out'), '--exit=1', '/x/oltp_point_select.lua', 'run'], { sysbench }),
      (err: unknown) => {
        assert.ok(err instanceof SysbenchRunError);
        assert.equal(err.exitCode, 1);
        assert.equal(err.signal, null);
        assert.equal(err.tail.at(-1), 'FATAL: Thread initialization failed!');
        assert.match(
          err.message,
          /^sysbench run of \/x\/oltp_point_select\.lua exited with code 1: .*FATAL: Thread initialization failed!$/,
        );
        return true;
      },
    );
  });

  test('a FATAL line on stderr fails the run even when sysbench exits 0', async () => {
    const args = [
      out('point-select-1-thread.out'),
      `--stderr=${fixturePath('suite', 'fatal-mid-run.out')}`,
      '/x/s.lua',
      'run',
    ];
    await assert.rejects(
      runSysbench(args, { sysbench }),
      (err: unknown) => err instanceof SysbenchOutputError && err.fatalLine !== undefined,
    );
  });

  test('a cut report that exits 0 is a SysbenchOutputError', async () => {
    await assert.rejects(
      runSysbench([out('truncated-no-latency.out'), '/x/s.lua', 'run'], { sysbench }),
      SysbenchOutputError,
    );
  });

  test('a run past its timeout is stopped and reported as a timeout', async () => {
    await assert.rejects(runSysbench(['--hang', '/x/s.lua', 'run'], { sysbench, timeoutMs: 300 }), ExecTimeoutError);
  });

  test('an abort stops the run', async () => {
    const controller = new AbortController();
    const running = runSysbench(['--hang', '/x/s.lua', 'run'], { sysbench, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(running, (err: unknown) => err instanceof SysbenchRunError && err.signal === 'SIGTERM');
  });

  test('a sysbench path that does not exist is reported by exec', async () => {
    await assert.rejects(runSysbench(['/x/s.lua', 'run'], { sysbench: join(dir, 'no-sysbench') }), ExecNotFoundError);
  });
});

describe('prepareSysbench', () => {
  test('resolves when prepare exits 0 and fails with the exit code otherwise', async () => {
    await prepareSysbench(['/x/oltp_read_only.lua', 'prepare'], { sysbench });
    await assert.rejects(
      prepareSysbench(['--exit=3', '/x/oltp_read_only.lua', 'prepare'], { sysbench }),
      (err: unknown) => err instanceof SysbenchRunError && err.exitCode === 3,
    );
  });
});
