import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { SysbenchOutputError, parseSysbenchOutput, type SysbenchResult } from '../../../src/suite/index.js';
import { fixturePath } from '../../helpers/paths.js';
import { joined } from '../../helpers/pattern.js';

const read = (name: string): string => readFileSync(fixturePath('suite', name), 'latin1');

// Real sysbench 1.0.20 outputs captured against MariaDB 10.11 (see test/fixtures/suite/README.md).
const complete: Array<[string, SysbenchResult]> = [
  [
    'point-select-1-thread.out',
    {
      queries: 38147,
      qps: 12708.68,
      transactions: 38147,
      tps: 12708.68,
      seconds: 3.0006,
      threads: 1,
      latencyMs: { min: 0.04, avg: 0.08, max: 4.12, p95: 0.11 },
      errors: 0,
      errorsPerSec: 0,
      reconnects: 0,
    },
  ],
  [
    'point-select-2-threads.out',
    {
      queries: 88379,
      qps: 29444.25,
      transactions: 88379,
      tps: 29444.25,
      seconds: 3.0005,
      threads: 2,
      latencyMs: { min: 0.04, avg: 0.07, max: 2.59, p95: 0.1 },
      errors: 0,
      errorsPerSec: 0,
      reconnects: 0,
    },
  ],
  [
    'update-index-1-thread.out',
    {
      queries: 28987,
      qps: 9655.23,
      transactions: 28987,
      tps: 9655.23,
      seconds: 3.001,
      threads: 1,
      latencyMs: { min: 0.06, avg: 0.1, max: 4.32, p95: 0.14 },
      errors: 0,
      errorsPerSec: 0,
      reconnects: 0,
    },
  ],
  [
    // QPS counts BEGIN and COMMIT: 6 statements per write-only transaction.
    'write-only-2-threads.out',
    {
      queries: 77442,
      qps: 25798.66,
      transactions: 12907,
      tps: 4299.78,
      seconds: 3.0008,
      threads: 2,
      latencyMs: { min: 0.23, avg: 0.46, max: 7.74, p95: 0.83 },
      errors: 0,
      errorsPerSec: 0,
      reconnects: 0,
    },
  ],
  [
    'write-only-deadlocks.out',
    {
      queries: 46856,
      qps: 23404.75,
      transactions: 7747,
      tps: 3869.66,
      seconds: 2.0009,
      threads: 2,
      latencyMs: { min: 0.22, avg: 0.51, max: 12.35, p95: 0.95 },
      errors: 156,
      errorsPerSec: 77.92,
      reconnects: 0,
    },
  ],
];

// Each broken output, and words its message must hold (what is missing, and the last line).
const broken: Array<[string, RegExp[]]> = [
  ['empty.out', [/is empty/]],
  ['blank-lines.out', [/is empty/]],
  ['garbage.out', [/no "SQL statistics:" section/, /last line: ".*\\u0000\\u0001.*qps: lots"/]],
  ['truncated-before-statistics.out', [/no "SQL statistics:" section/, /last line: "Threads started!"/]],
  [
    'truncated-mid-statistics.out',
    [/"queries:" line .* has no readable value/, /last line: "queries: +38147 +\(1270"/],
  ],
  ['truncated-no-latency.out', [/no "Latency \(ms\):" section/, /last line: "total number of events: +38147"/]],
  ['truncated-mid-latency.out', [/"max:" line .* has no readable value/, /last line: "max:"/]],
  ['point-select-percentile-99.out', [/99th, not the 95th/, /--percentile=95/]],
  [
    'fatal-table-missing.out',
    [
      joined(
        /fatal error: "FATAL: mysql_stmt_prepare\(\) failed" "FATAL: /,
        /MySQL error: 1146 \\"Table 'sbempty.sbtest1' doesn't /,
        /exist\\""/,
      ),
      /last line: "FATAL: Thread initialization failed!"/,
    ],
  ],
  ['fatal-no-server.out', [/FATAL: unable to connect to MySQL server on socket/]],
  [
    'fatal-mid-run.out',
    [/FATAL: mysql_stmt_execute\(\) returned error 1146/, /last line: "FATAL: `thread_run' function failed/],
  ],
];

describe('parseSysbenchOutput', () => {
  for (const [name, expected] of complete) {
    test(`reads ${name}`, () => {
      assert.deepEqual(parseSysbenchOutput(read(name)), expected);
    });
  }

  for (const [name, patterns] of broken) {
    test(`rejects ${name}`, () => {
      assert.throws(
        () => parseSysbenchOutput(read(name)),
        (err: unknown) => {
          assert.ok(err instanceof SysbenchOutputError, `expected SysbenchOutputError, got ${String(err)}`);
          for (const pattern of patterns) assert.match(err.message, pattern);
          return true;
        },
      );
    });
  }

  test('every fixture is covered by a case above', () => {
    const named = new Set([...complete.map(([n]) => n), ...broken.map(([n]) => n)]);
    const fixtures = readdirSync(fixturePath('suite')).filter((f) => f.endsWith('.out'));
    assert.deepEqual(
      fixtures.filter((f) => !named.has(f)),
      [],
    );
  });

  test('keeps the FATAL line and the last line in fields', () => {
    try {
      parseSysbenchOutput(read('fatal-table-missing.out'));
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof SysbenchOutputError);
      assert.equal(err.fatalLine, 'FATAL: mysql_stmt_prepare() failed');
      assert.equal(err.lastLine, 'FATAL: Thread initialization failed!');
    }
  });

  test('reads output with CRLF line ends, as from a log copied through Windows', () => {
    const result = parseSysbenchOutput(read('point-select-1-thread.out').replace(/\n/g, '\r\n'));
    assert.equal(result.qps, 12708.68);
  });

  test('never returns a non-finite number: an absurd value is an error', () => {
    const huge = read('point-select-1-thread.out').replace(/(queries: +38147 +)\(12708\.68/, `$1(${'9'.repeat(400)}`);
    assert.throws(
      () => parseSysbenchOutput(huge),
      (err: unknown) => err instanceof SysbenchOutputError && /qps/.test(err.message),
    );
  });

  test('a stderr warning after a complete report does not hide the report', () => {
    const result = parseSysbenchOutput(`${read('point-select-2-threads.out')}\nWARNING: something the run survived\n`);
    assert.equal(result.threads, 2);
  });
});
