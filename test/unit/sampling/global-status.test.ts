import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Connection, Pool } from 'mysql2/promise';
import {
  CounterWrapError,
  InvalidRateError,
  observerCost,
  parseGlobalStatus,
  readGlobalStatus,
  STATUS_COUNTERS,
  StatusParseError,
  statusDelta,
  type GlobalStatus,
  type StatusConnection,
} from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const rows = (name: string): unknown => JSON.parse(readFileSync(fixturePath('sampling', name), 'utf8'));

/** Answers like mysql2 does: [rows, fields]; records the SQL it was sent. */
function fakeConnection(answer: unknown): StatusConnection & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    query: async (sql: string) => {
      sent.push(sql);
      return [answer, []];
    },
  };
}

// Compile-time check: the mysql2 promise API satisfies the interface without adapters.
const acceptsMysql2: Array<(c: Connection | Pool) => StatusConnection> = [(c) => c];

describe('readGlobalStatus', () => {
  test('runs SHOW GLOBAL STATUS and keeps every row of the real MariaDB 10.11 capture', async () => {
    const conn = fakeConnection(rows('global-status-before.json'));
    const status = await readGlobalStatus(conn);
    assert.deepEqual(conn.sent, ['SHOW GLOBAL STATUS']);
    assert.equal(Object.keys(status).length, 562);
    assert.equal(status['Com_commit'], '1007');
    assert.equal(status['Innodb_have_punch_hole'], 'ON');
    assert.equal(status['Ssl_cipher'], '');
    assert.equal(status['Max_memory_used'], 'NULL');
    assert.equal(acceptsMysql2.length, 1);
  });

  test('rows of the wrong shape are a StatusParseError', async () => {
    await assert.rejects(readGlobalStatus(fakeConnection([{ name: 'x', value: '1' }])), StatusParseError);
    await assert.rejects(
      readGlobalStatus(fakeConnection({ affectedRows: 0 })),
      /not a list of \{Variable_name, Value\}/,
    );
  });

  test('numbers and null from another driver become text', () => {
    assert.deepEqual(
      parseGlobalStatus([
        { Variable_name: 'Uptime', Value: 42 },
        { Variable_name: 'X', Value: null },
      ]),
      { Uptime: '42', X: 'NULL' },
    );
  });
});

describe('statusDelta', () => {
  test('the real 3 s sysbench oltp_read_write run (18640 queries, 932 transactions)', () => {
    const d = statusDelta(
      parseGlobalStatus(rows('global-status-before.json')),
      parseGlobalStatus(rows('global-status-after.json')),
      18640,
    );
    // MariaDB 10.11 has no Innodb_rows_*: skipped, not errors.
    assert.deepEqual(d.missing, [
      'Innodb_rows_read',
      'Innodb_rows_updated',
      'Innodb_rows_inserted',
      'Innodb_rows_deleted',
    ]);
    const by = Object.fromEntries(d.counters.map((c) => [c.name, c]));
    assert.equal(d.counters.length, STATUS_COUNTERS.length - 4);
    // One transaction = 14 selects, 2 updates, 1 delete, 1 insert, 1 commit (+ BEGIN) = 20 queries.
    assert.deepEqual(by['Com_commit'], { name: 'Com_commit', delta: 932, perOp: 0.05 });
    assert.deepEqual(by['Com_select'], { name: 'Com_select', delta: 13048, perOp: 0.7 });
    assert.deepEqual(by['Com_update'], { name: 'Com_update', delta: 1864, perOp: 0.1 });
    assert.equal(by['Handler_read_next']?.delta, 370320);
    assert.equal(by['Innodb_os_log_written']?.delta, 1299413);
    assert.equal(by['Innodb_os_log_written']?.perOp, 1299413 / 18640);
    assert.equal(by['Innodb_data_written']?.delta, 0);
  });

  const base: GlobalStatus = { Innodb_rows_read: '1000', Innodb_rows_updated: '10', Com_select: '50', Uptime: '5' };
  test('counters present on MySQL 8 (Innodb_rows_*) are counted; hand-made status', () => {
    const after: GlobalStatus = {
      Innodb_rows_read: '21000',
      Innodb_rows_updated: '410',
      Com_select: '2050',
      Uptime: '6',
    };
    const d = statusDelta(base, after, 4000);
    assert.deepEqual(d.counters, [
      { name: 'Innodb_rows_read', delta: 20000, perOp: 5 },
      { name: 'Innodb_rows_updated', delta: 400, perOp: 0.1 },
      { name: 'Com_select', delta: 2000, perOp: 0.5 },
    ]);
    assert.equal(d.missing.length, STATUS_COUNTERS.length - 3);
  });

  test('a counter only in one of the two readings is missing, not an error', () => {
    const d = statusDelta(base, { ...base, Com_select: undefined } as unknown as GlobalStatus, 1);
    assert.ok(d.missing.includes('Com_select'));
  });

  test('bad input is a typed error', () => {
    assert.throws(
      () => statusDelta(base, { ...base, Com_select: '49' }, 10),
      (err: unknown) => err instanceof CounterWrapError && err.counter === 'Com_select',
    );
    assert.throws(
      () => statusDelta(base, { ...base, Com_select: 'ON' }, 10),
      (err: unknown) => err instanceof StatusParseError && err.counter === 'Com_select',
    );
    assert.throws(() => statusDelta(base, { ...base, Com_select: '1e3' }, 10), StatusParseError);
    for (const q of [0, -5, Number.NaN]) {
      assert.throws(
        () => statusDelta(base, base, q),
        (err: unknown) => err instanceof InvalidRateError && err.field === 'queries',
      );
    }
  });
});

describe('observerCost', () => {
  test('what two back-to-back readings add is taken off every delta, never below zero', () => {
    const at = (rnd: number, rows: number): Record<string, string> => ({
      Handler_read_rnd_next: String(rnd),
      Rows_read: String(rows),
    });
    const cost = observerCost(at(1000, 50), at(1600, 51));
    assert.deepEqual(cost, { Handler_read_rnd_next: 600, Rows_read: 1 });
    const d = statusDelta(at(5000, 100), at(5700, 100), 100, cost);
    assert.deepEqual(
      d.counters.map((c) => [c.name, c.delta, c.perOp]),
      [
        ['Rows_read', 0, 0],
        ['Handler_read_rnd_next', 100, 1],
      ],
    );
  });
});
