import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import {
  listStatements,
  loadSuite,
  prepareArgv,
  prepareSysbench,
  runArgv,
  runSysbench,
  statementsArgv,
  warmupArgv,
  type Suite,
  type SuiteTest,
  type SysbenchConnection,
  type SysbenchResult,
} from '../../src/suite/index.js';
import { fillPlaceholders } from '../../src/session/index.js';
import { startScratchServer, type ScratchServer } from '../helpers/mariadb.js';
import { projectRoot } from '../helpers/paths.js';

// Every test of every shipped suite, 1 s at 1 thread against the real mariadbd: a script that does not run,
// a script option the script does not know, or a "write" test that writes nothing fails here, not hours
// into a session. The tables are small: small-server's 20M rows take far too long to load in a test.

const SUITES_DIR = join(projectRoot, 'config', 'suites');
const TABLE_SIZE = 10_000;
const SECONDS = 1;
const RUN_TIMEOUT_MS = 30_000;

const suites = readdirSync(SUITES_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length))
  .sort()
  .map((name) => oneLoadAtOneThread(loadSuite(name, SUITES_DIR, { seconds: SECONDS }), TABLE_SIZE));

/**
 * Every script once, at 1 thread (the warm-up's too), on the first load made small, in database sbtest: the loader
 * has no table-size override, and a suite with levels lists a test once per level (the levels' own loads are the
 * loader's to check).
 */
function oneLoadAtOneThread(suite: Suite, tableSize: number): Suite {
  const load = { ...suite.load, tableSize: Math.min(suite.load.tableSize, tableSize), database: 'sbtest' };
  const tests = suite.tests.filter((t, i) => suite.tests.findIndex((u) => u.name === t.name) === i);
  return {
    ...suite,
    load,
    loads: [load],
    warmup: { ...suite.warmup, load, threads: 1 },
    tests: tests.map((t) => ({ ...t, threads: [1], load })),
  };
}

// Which row counters a write test must move; every other test is a read and must move none of them.
// MariaDB 10.5+ has no Innodb_rows_*: row work shows in the Handler_* counters and Rows_read.
const ROW_WRITES = ['Handler_write', 'Handler_update', 'Handler_delete'] as const;
const WRITES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^update-/, ['Handler_update']],
  [/^insert$/, ['Handler_write']],
  [/^delete-insert$/, ['Handler_write', 'Handler_delete']],
  [/^write-only$/, ROW_WRITES],
];
const ROW_COUNTERS = ['Rows_read', ...ROW_WRITES] as const;
type RowCounters = Record<(typeof ROW_COUNTERS)[number], number>;

function writesOf(test: SuiteTest): readonly string[] | undefined {
  return WRITES.find(([pattern]) => pattern.test(test.name))?.[1];
}

let scratch: ScratchServer | undefined;
let conn: SysbenchConnection;

function server(): ScratchServer {
  assert.ok(scratch !== undefined, 'the server did not start (see the before hook)');
  return scratch;
}

before(async () => {
  scratch = await startScratchServer({ profile: 'relaxed', prefix: 'qpsw-suite-' });
  conn = { socket: scratch.socket, user: 'root' };
  const [row] = await scratch.server.query('SELECT @@skip_networking AS skip, @@socket AS socket');
  assert.deepEqual({ ...row }, { skip: 1, socket: scratch.socket });
});

after(async () => {
  await scratch?.close();
});

async function rowCounters(): Promise<RowCounters> {
  const rows = await server().server.query<RowDataPacket[]>(
    `SHOW GLOBAL STATUS WHERE Variable_name IN (${ROW_COUNTERS.map(() => '?').join(', ')})`,
    [...ROW_COUNTERS],
  );
  const values = new Map(rows.map((r) => [String(r['Variable_name']), Number(r['Value'])]));
  const pick = (name: string): number => {
    const value = values.get(name);
    assert.ok(value !== undefined && Number.isSafeInteger(value), `SHOW GLOBAL STATUS has no usable ${name}: ${value}`);
    return value;
  };
  return Object.fromEntries(ROW_COUNTERS.map((name) => [name, pick(name)])) as RowCounters;
}

async function rowCount(table: string): Promise<number> {
  const [row] = await server().server.query(`SELECT COUNT(*) AS n FROM sbtest.${table}`);
  return Number(row?.['n']);
}

async function sumOfC(table: string): Promise<number> {
  const [row] = await server().server.query(`SELECT SUM(c) AS total FROM sbtest.${table}`);
  return Number(row?.['total']);
}

/** update-index-kc's prepare: each sbtestN copied whole into sbtest_kcN, c zeroed, one secondary index on (k, c). */
async function assertKcCopies(suite: Suite): Promise<void> {
  for (let i = 1; i <= suite.load.tables; i++) {
    const [copy] = await server().server.query(
      `SELECT COUNT(*) AS n, SUM(kc.c <> '0') AS nonzero FROM ` +
        `sbtest.sbtest_kc${i} kc JOIN sbtest.sbtest${i} s USING (id) WHERE kc.k ` +
        `= s.k AND kc.pad = s.pad`,
    );
    assert.deepEqual(
      { n: Number(copy?.['n']), nonzero: Number(copy?.['nonzero']) },
      { n: suite.load.tableSize, nonzero: 0 },
      `sbtest_kc${i}`,
    );
    const indexes = await server().server.query<RowDataPacket[]>(
      'SELECT index_name AS name, GROUP_CONCAT(column_name ORDER BY ' +
        'seq_in_index) AS columns FROM information_schema.statistics ' +
        "WHERE table_schema = 'sbtest' AND table_name = ? GROUP BY index_name ORDER BY index_name",
      [`sbtest_kc${i}`],
    );
    assert.deepEqual(
      indexes.map((r) => [r['name'], r['columns']]),
      [
        [`kc_${i}`, 'k,c'],
        ['PRIMARY', 'id'],
      ],
    );
  }
}

function assertRan(result: SysbenchResult, label: string): void {
  const shown = `${label}: ${JSON.stringify(result)}`;
  assert.equal(result.threads, 1, shown);
  assert.ok(result.qps > 0, shown);
  assert.ok(result.transactions > 0, shown);
  assert.ok(result.errors < result.transactions, `most events failed: ${shown}`);
  assert.ok(result.seconds >= SECONDS * 0.9 && result.seconds < SECONDS + 5, shown);
}

for (const suite of suites) {
  describe(`suite ${suite.name}`, () => {
    test(`prepare loads ${suite.load.tables} x ${suite.load.tableSize} rows with ${suite.load.script}`, async () => {
      // A fresh database per suite: an earlier suite's insert filled sbtest_insert1.
      await server().server.query('DROP DATABASE IF EXISTS sbtest');
      await server().server.query('CREATE DATABASE sbtest');
      await prepareSysbench(prepareArgv(suite, conn), { timeoutMs: RUN_TIMEOUT_MS });
      for (let i = 1; i <= suite.load.tables; i++) assert.equal(await rowCount(`sbtest${i}`), suite.load.tableSize);
      if (suite.tests.some((t) => t.script === 'update-index-kc')) await assertKcCopies(suite);
    });

    test(`warm-up ${suite.warmup.script} runs`, async () => {
      const result = await runSysbench(warmupArgv(suite.warmup, conn), { timeoutMs: RUN_TIMEOUT_MS });
      assertRan(result, 'warm-up');
    });

    for (const t of suite.tests) {
      const writes = writesOf(t);
      test(`${t.name} (${t.script}) ${writes !== undefined ? 'writes' : 'reads'}`, async () => {
        assert.deepEqual(t.threads, [1]);
        // Counted before the counters are read: COUNT(*) moves Rows_read too.
        const rows = await rowCount('sbtest1');
        const counters = await rowCounters();
        const kcSum = t.script === 'update-index-kc' ? await sumOfC('sbtest_kc1') : 0;
        const result = await runSysbench(runArgv(t, 1, conn), { timeoutMs: RUN_TIMEOUT_MS });
        assertRan(result, t.name);
        // Each event adds 1 to the c of one row: the sum of c counts the updates, and nothing else wrote c.
        if (t.script === 'update-index-kc')
          assert.equal((await sumOfC('sbtest_kc1')) - kcSum, result.transactions, 'c = c + 1 once per event');
        const moved = await rowCounters();
        const delta = (name: keyof RowCounters): number => moved[name] - counters[name];
        if (writes === undefined) assert.ok(delta('Rows_read') > 0, 'a read reads rows');
        for (const name of ROW_WRITES) {
          const expected = writes?.includes(name) ?? false;
          assert.equal(
            delta(name) > 0,
            expected,
            `${name} moved by ${delta(name)}; expected it to ${expected ? '' : 'not '}move`,
          );
        }
        // A paired session runs every test on one datadir, sweep after sweep: no test may change the rows the
        // others read, or the faster server would read other data than the slower one.
        assert.equal(await rowCount('sbtest1'), rows, 'the test leaves the rows of sbtest1 as it found them');
        if (t.name === 'insert') assert.ok((await rowCount('sbtest_insert1')) > 0, 'insert adds rows to its own table');
      });
    }

    // A session explains every test's statements on both sides (session/statement-plans.ts): each script lists what
    // it prepares, and the server explains each of them with its placeholders filled in.
    test('every test lists the statements it runs, and the server explains each one', async () => {
      const db = await server().server.connect('sbtest');
      try {
        for (const t of suite.tests) {
          const listed = await listStatements(t.scriptPath, statementsArgv(t, conn), { timeoutMs: RUN_TIMEOUT_MS });
          const explainable = listed.filter((q) => /^(SELECT|UPDATE|DELETE|INSERT)\b/i.test(q));
          assert.ok(explainable.length > 0, `${t.name} lists no statement to explain: ${listed.join(' | ')}`);
          assert.ok(!listed.some((q) => q.includes('\n')), 'one line each');
          for (const q of explainable) {
            const [rows] = await db.query(`EXPLAIN FORMAT=JSON ${fillPlaceholders(q, suite.load.tableSize)}`);
            assert.match(String(Object.values((rows as Array<Record<string, unknown>>)[0] ?? {})[0]), /"query_block"/);
          }
        }
      } finally {
        await db.end();
      }
    });
  });
}

describe('update-index-kc on a datadir loaded without its prepare', () => {
  test('stops at once and names the fix', async () => {
    const suite = suites.find((x) => x.tests.some((t) => t.script === 'update-index-kc'));
    assert.ok(suite !== undefined, 'a shipped suite runs update-index-kc');
    const kc = suite.tests.find((t) => t.script === 'update-index-kc')!;
    await server().server.query('DROP TABLE IF EXISTS sbtest.sbtest_kc1');
    await assert.rejects(runSysbench(runArgv(kc, 1, conn), { timeoutMs: RUN_TIMEOUT_MS }), (err: Error) => {
      assert.match(
        err.message,
        /table sbtest_kc1 does not exist: .*load the suite with this script \(load: script: update-index-kc\)/,
      );
      return true;
    });
  });
});
