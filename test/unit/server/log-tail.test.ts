import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickLogErrors, logSize, readLogSince } from '../../../src/server/log-tail.js';

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
    const crash = ['a', 'b', '', 'mysqld got signal 11 ;', 'Attempting backtrace.', 'stack_bottom = 0x0', 'x', 'y'].join('\n');
    assert.deepEqual(pickLogErrors(crash), ['mysqld got signal 11 ;', 'Attempting backtrace.', 'stack_bottom = 0x0', 'x', 'y']);
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
