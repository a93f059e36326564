import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isOwnedOption,
  prepareArgv,
  runArgv,
  warmupArgv,
  type SuiteLoad,
  type SuiteTest,
  type SuiteWarmup,
} from '../../../src/suite/index.js';

const conn = { socket: '/run/qpswatch/b.sock', user: 'root' };
const load: SuiteLoad = {
  tables: 1,
  tableSize: 10000,
  script: 'oltp_read_only',
  scriptPath: '/usr/share/sysbench/oltp_read_only.lua',
  args: {},
  database: 'sbtest',
};
const test1: SuiteTest = {
  name: 'points-covered-si',
  script: 'points',
  scriptPath: '/opt/qpswatch/src/suite/lua/points.lua',
  args: { index: 'si', covered: true, range_size: 100, note: 'a b;$(x)' },
  seconds: 5,
  threads: [1, 2],
  load,
};
const connection = [
  '--db-driver=mysql',
  '--mysql-socket=/run/qpswatch/b.sock',
  '--mysql-user=root',
  '--mysql-db=sbtest',
];

describe('sysbench argv', () => {
  test('runArgv: connection, table shape, uniform, threads, time, report options, script args, script, command', () => {
    assert.deepEqual(runArgv(test1, 2, conn), [
      ...connection,
      '--tables=1',
      '--table-size=10000',
      '--rand-type=uniform',
      '--threads=2',
      '--time=5',
      '--report-interval=0',
      '--percentile=95',
      '--histogram=off',
      '--index=si',
      '--covered=on',
      '--range-size=100',
      '--note=a b;$(x)',
      '/opt/qpswatch/src/suite/lua/points.lua',
      'run',
    ]);
  });

  test('runArgv: seconds can be given for one run; false is off', () => {
    const argv = runArgv({ ...test1, args: { covered: false } }, 1, conn, 60);
    assert.ok(argv.includes('--time=60'));
    assert.ok(argv.includes('--covered=off'));
    assert.ok(!argv.includes('--time=5'));
  });

  test('warmupArgv: the warm-up threads and seconds', () => {
    const warmup: SuiteWarmup = {
      script: 'oltp_read_only',
      scriptPath: load.scriptPath,
      args: { range_size: 1000 },
      seconds: 30,
      threads: 3,
      load,
    };
    const argv = warmupArgv(warmup, conn);
    assert.ok(argv.includes('--threads=3'));
    assert.ok(argv.includes('--time=30'));
    assert.deepEqual(argv.slice(-3), ['--range-size=1000', '/usr/share/sysbench/oltp_read_only.lua', 'run']);
  });

  test('prepareArgv: uniform data from a fixed seed, one thread per table (at most 8), the load script', () => {
    assert.deepEqual(prepareArgv({ load: { ...load, tables: 4, args: { mysql_storage_engine: 'innodb' } } }, conn), [
      ...connection,
      '--tables=4',
      '--table-size=10000',
      '--rand-type=uniform',
      '--threads=4',
      '--rand-seed=1',
      '--mysql-storage-engine=innodb',
      '/usr/share/sysbench/oltp_read_only.lua',
      'prepare',
    ]);
    assert.ok(prepareArgv({ load: { ...load, tables: 32 } }, conn).includes('--threads=8'));
  });

  test("a level's load: prepare, warm-up and runs all go to its own database", () => {
    const level: SuiteLoad = { ...load, tables: 4, database: 'sbtest_l2' };
    const db = (argv: string[]) => argv.filter((a) => a.startsWith('--mysql-db='));
    assert.deepEqual(db(prepareArgv({ load: level }, conn)), ['--mysql-db=sbtest_l2']);
    assert.deepEqual(db(runArgv({ ...test1, load: level }, 8, conn)), ['--mysql-db=sbtest_l2']);
    assert.deepEqual(
      db(
        warmupArgv(
          { script: 'oltp_read_only', scriptPath: load.scriptPath, args: {}, seconds: 5, threads: 1, load: level },
          conn,
        ),
      ),
      ['--mysql-db=sbtest_l2'],
    );
  });

  test('refuses thread counts and times that sysbench would misread', () => {
    assert.throws(() => runArgv(test1, 0, conn), RangeError);
    assert.throws(() => runArgv(test1, 1.5, conn), /threads must be a whole number >= 1, got 1.5/);
    assert.throws(() => runArgv(test1, 1, conn, Number.NaN), /seconds must be a whole number >= 1, got NaN/);
  });

  test('isOwnedOption: the runner-owned options, with either spelling', () => {
    for (const key of [
      'threads',
      'time',
      'table_size',
      'table-size',
      'rand_type',
      'mysql_socket',
      'mysql-db',
      'mysql_password',
      'db-driver',
      'percentile',
    ]) {
      assert.equal(isOwnedOption(key), true, key);
    }
    for (const key of [
      'range_size',
      'points',
      'index',
      'covered',
      'random_points',
      'mysql_storage_engine',
      'mysql-ignore-errors',
      'db-ps-mode',
    ]) {
      assert.equal(isOwnedOption(key), false, key);
    }
  });
});
