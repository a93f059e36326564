import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickLogErrors, logSize, readLogSince } from '../../../src/server/log-tail.js';
import {
  DatadirInitError,
  ServerDiedError,
  ServerOptionsError,
  ServerStartError,
  ServerVersionError,
} from '../../../src/server/index.js';

describe('logErrors', () => {
  test('keeps the [ERROR] lines, MariaDB and MySQL style, once each', () => {
    const log = [
      '2026-11-30  0:22:55 0 [Note] Starting MariaDB 10.11.19',
      "2026-11-30  0:22:55 0 [ERROR] /usr/sbin/mariadbd: unknown variable 'foo=1'",
      '2026-11-30  0:22:55 0 [ERROR] Aborting',
    ].join('\n');
    const mysql = "2024-01-01T00:00:00.000000Z 0 [ERROR] [MY-000067] [Server] unknown variable 'foo=1'.";
    assert.deepEqual(pickLogErrors(log, log, mysql), [
      "2026-11-30  0:22:55 0 [ERROR] /usr/sbin/mariadbd: unknown variable 'foo=1'",
      '2026-11-30  0:22:55 0 [ERROR] Aborting',
      mysql,
    ]);
  });

  test('without [ERROR] lines, the last lines say what happened', () => {
    const crash = [
      'a',
      'b',
      '',
      'mysqld got signal 11 ;',
      'Attempting backtrace.',
      'stack_bottom = 0x0',
      'x',
      'y',
    ].join('\n');
    assert.deepEqual(pickLogErrors(crash), [
      'mysqld got signal 11 ;',
      'Attempting backtrace.',
      'stack_bottom = 0x0',
      'x',
      'y',
    ]);
  });
});

describe('readLogSince', () => {
  test('reads only what was written after the offset; a missing log reads as empty', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'qpswatch-log-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'error.log');
    assert.equal(await logSize(file), 0);
    assert.equal(await readLogSince(file, 0), '');
    await writeFile(file, 'old run [ERROR] old\n');
    const offset = await logSize(file);
    await appendFile(file, 'new run [ERROR] new\n');
    assert.equal(await readLogSince(file, offset), 'new run [ERROR] new\n');
  });
});

describe('server output quoted in an error is escaped', () => {
  const hostile = ["2024-05-01 10:00:00 0 [ERROR] \u001b]0;owned\u0007\u001b[2J unknown variable 'x=1'\nsecond line"];
  const errors: Array<[string, Error]> = [
    ['start', new ServerStartError('exited', hostile, '/w/error.log', 'exit code 1')],
    ['options', new ServerOptionsError('/w/my.cnf', hostile)],
    ['init', new DatadirInitError('/w/data', hostile, '/w/init.log', 'exit code 1')],
    ['died', new ServerDiedError(7, { exitCode: 1, signal: null }, hostile, '/w/error.log')],
    ['--version', new ServerVersionError('/usr/sbin/mariadbd', 'mariadbd \u001b[31m Ver\n', 'not a version line')],
  ];
  for (const [what, err] of errors) {
    test(`${what}: no control character reaches the message, and it stays one line`, () => {
      assert.doesNotMatch(err.message, /[\u0000-\u001f\u007f-\u009f]/);
      assert.match(err.message, /\\x1b/);
    });
  }
});
