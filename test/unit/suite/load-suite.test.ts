import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  PROJECT_SCRIPT_DIR,
  SuiteError,
  loadSuite,
  resolveThreads,
  type SuiteOverrides,
} from '../../../src/suite/index.js';
import { availableParallelism } from 'node:os';
import { projectRoot } from '../../helpers/paths.js';
import { joined } from '../../helpers/pattern.js';

const shippedDir = join(projectRoot, 'config', 'suites');

// A stand-in for /usr/share/sysbench, so the error cases do not depend on the host's sysbench.
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-suite-'));
const stockDir = join(dir, 'stock');
mkdirSync(stockDir);
for (const name of ['oltp_read_only', 'oltp_point_select'])
  writeFileSync(join(stockDir, `${name}.lua`), '-- stand-in\n');
const scriptDirs = [PROJECT_SCRIPT_DIR, stockDir];
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID = `
name: tiny
description: for tests
load: { tables: 2, table_size: 500 }
warmup: { script: oltp_read_only, seconds: 3, threads: 1 }
defaults: { seconds: 7, threads: [1, 4] }
tests:
  - { name: point-query, script: oltp_point_select }
  - { name: points-covered-si, script: points, args: { index: si, covered: true }, seconds: 9, threads: [2] }
`;

function write(name: string, text: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

function loadError(text: string): SuiteError {
  return loadErrorWith(text, {});
}

function loadErrorWith(text: string, overrides: SuiteOverrides): SuiteError {
  const file = write('case', text);
  try {
    loadSuite(file, dir, overrides, scriptDirs);
  } catch (err) {
    assert.ok(err instanceof SuiteError, `expected SuiteError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected loadSuite to throw');
}

describe('loadSuite', () => {
  test('reads a suite by name, resolving scripts to absolute paths and filling defaults', () => {
    write('tiny', VALID);
    const suite = loadSuite('tiny', dir, {}, scriptDirs);
    assert.equal(suite.name, 'tiny');
    assert.equal(suite.file, join(dir, 'tiny.yaml'));
    assert.deepEqual(suite.load, {
      tables: 2,
      tableSize: 500,
      script: 'oltp_read_only',
      scriptPath: join(stockDir, 'oltp_read_only.lua'),
      args: {},
      database: 'sbtest',
    });
    assert.deepEqual(suite.loads, [suite.load]);
    assert.deepEqual(suite.levels, []);
    assert.deepEqual(suite.warmup, {
      script: 'oltp_read_only',
      scriptPath: join(stockDir, 'oltp_read_only.lua'),
      args: {},
      seconds: 3,
      threads: 1,
      load: suite.load,
    });
    assert.deepEqual(
      suite.tests.map((t) => [t.name, t.scriptPath, t.seconds, t.threads]),
      [
        ['point-query', join(stockDir, 'oltp_point_select.lua'), 7, [1, 4]],
        ['points-covered-si', join(PROJECT_SCRIPT_DIR, 'points.lua'), 9, [2]],
      ],
    );
    assert.deepEqual(suite.tests[1]?.args, { index: 'si', covered: true });
  });

  test('overrides replace seconds everywhere and threads of every test', () => {
    const file = write('tiny', VALID);
    const suite = loadSuite(file, '/nowhere', { seconds: 2, threads: [3] }, scriptDirs);
    assert.deepEqual(
      suite.tests.map((t) => [t.seconds, t.threads]),
      [
        [2, [3]],
        [2, [3]],
      ],
    );
    assert.equal(suite.warmup.seconds, 2);
    assert.equal(suite.warmup.threads, 1);
  });

  test('rejects bad overrides, naming them', () => {
    const file = write('tiny', VALID);
    assert.throws(
      () => loadSuite(file, dir, { seconds: 0 }, scriptDirs),
      /override seconds = 0: expected a whole number >= 1/,
    );
    assert.throws(() => loadSuite(file, dir, { threads: [] }, scriptDirs), /override threads = \[\]/);
  });

  test('a project script takes precedence and a path is relative to the suite file', () => {
    mkdirSync(join(dir, 'mine'), { recursive: true });
    writeFileSync(join(dir, 'mine', 'custom.lua'), '-- custom\n');
    const suite = loadSuite(
      write('tiny', VALID.replace('script: oltp_point_select', 'script: mine/custom.lua')),
      dir,
      {},
      scriptDirs,
    );
    assert.equal(suite.tests[0]?.scriptPath, join(dir, 'mine', 'custom.lua'));
  });

  test('an unknown suite name lists the suites that exist', () => {
    write('tiny', VALID);
    assert.throws(
      () => loadSuite('tyni', dir, {}, scriptDirs),
      (err: unknown) => {
        assert.ok(err instanceof SuiteError);
        assert.match(err.message, /suite "tyni" not found: no file .*tyni\.yaml; suites in .*: .*tiny/);
        return true;
      },
    );
  });

  const cases: Array<[string, string, RegExp, string | undefined]> = [
    [
      'unknown script',
      VALID.replace('script: oltp_point_select', 'script: oltp_pointselect'),
      joined(
        /tests\[0\]\.script = "oltp_pointselect": script not found /,
        /\(looked for oltp_pointselect\.lua in .*src\/suite\/lua, /,
        /.*stock\)/,
      ),
      'tests[0].script',
    ],
    [
      'missing relative script',
      VALID.replace('script: oltp_point_select', 'script: ./nope.lua'),
      /tests\[0\]\.script = "\.\/nope\.lua": script not found \(no file .*nope\.lua\)/,
      'tests[0].script',
    ],
    [
      'zero threads',
      VALID.replace('threads: [2]', 'threads: [0]'),
      /tests\[1\]\.threads\[0\] = 0: expected a whole number >= 1/,
      'tests[1].threads[0]',
    ],
    [
      'empty threads',
      VALID.replace('threads: [2]', 'threads: []'),
      /tests\[1\]\.threads = \[\]: expected at least one thread count/,
      'tests[1].threads',
    ],
    ['misspelt key', VALID.replace('seconds: 9', 'second: 9'), /tests\[1\]: unknown key "second"/, 'tests[1]'],
    [
      'missing load size',
      VALID.replace('table_size: 500', 'tablesize: 500'),
      /load\.table_size = \(missing\)/,
      'load.table_size',
    ],
    [
      'bad name',
      VALID.replace('name: point-query', 'name: Point Query'),
      /tests\[0\]\.name = "Point Query": expected lower-case letters/,
      'tests[0].name',
    ],
    [
      'owned option in args',
      VALID.replace('{ index: si, covered: true }', '{ index: si, threads: 8 }'),
      /tests\[1\]\.args\.threads = 8: qpswatch sets --threads itself/,
      'tests[1].args.threads',
    ],
    [
      'connection option in args',
      VALID.replace('{ index: si, covered: true }', '{ mysql_socket: /x }'),
      /tests\[1\]\.args\.mysql_socket = "\/x": qpswatch sets/,
      'tests[1].args.mysql_socket',
    ],
    [
      'uniform is not optional',
      VALID.replace('{ index: si, covered: true }', '{ rand_type: pareto }'),
      /args\.rand_type = "pareto": qpswatch sets --rand-type itself/,
      'tests[1].args.rand_type',
    ],
    [
      'args value of a wrong type',
      VALID.replace('{ index: si, covered: true }', '{ index: [si] }'),
      /tests\[1\]\.args\.index = \["si"\]: expected a string, number or true\/false/,
      'tests[1].args.index',
    ],
    [
      'duplicate test names',
      VALID.replace('name: points-covered-si', 'name: point-query'),
      /tests\[1\]\.name = "point-query": another test has this name/,
      'tests[1].name',
    ],
    [
      'no seconds anywhere',
      VALID.replace('defaults: { seconds: 7, threads: [1, 4] }', 'defaults: { threads: [1] }'),
      /tests\[0\]\.seconds is missing: set it on the test or set defaults\.seconds/,
      'tests[0].seconds',
    ],
    ['no tests', VALID.replace(/tests:[\s\S]*/, 'tests: []'), /tests = \[\]: expected at least one test/, 'tests'],
    ['not YAML', 'name: [unclosed', /not valid YAML/, undefined],
  ];
  for (const [what, text, pattern, field] of cases) {
    test(`names the file, field and value: ${what}`, () => {
      const err = loadError(text);
      assert.match(err.message, pattern);
      assert.ok(err.message.includes(join(dir, 'case.yaml')), err.message);
      assert.equal(err.field, field);
    });
  }
});

const LEVELS = `
name: levels
description: for tests
warmup: { script: oltp_read_only, seconds: 3, threads: 1 }
defaults: { seconds: 2 }
tests:
  - { name: point-query, script: oltp_point_select }
  - { name: read-only, script: oltp_read_only }
levels:
  - { threads: 1, load: { tables: 1, table_size: 100 }, tests: [point-query] }
  - { threads: cores, load: { tables: 4, table_size: 200 } }
  - { threads: 4*cores, load: { tables: 4, table_size: 200 } }
`;

describe('loadSuite levels', () => {
  test(
    'threads resolve on the host (cores, N*cores); each test runs once per ' +
      "level that names it, on that level's load",
    () => {
      const suite = loadSuite(write('levels', LEVELS), dir, { cores: 3 }, scriptDirs);
      assert.deepEqual(
        suite.levels.map((l) => [l.threadsSpec, l.threads, l.load.tables, l.load.tableSize, l.load.database, l.tests]),
        [
          [1, 1, 1, 100, 'sbtest_l1', ['point-query']],
          ['cores', 3, 4, 200, 'sbtest_l2', ['point-query', 'read-only']],
          ['4*cores', 12, 4, 200, 'sbtest_l2', ['point-query', 'read-only']],
        ],
      );
      // Levels of the same load share one database: loaded once, warmed up once.
      assert.deepEqual(
        suite.loads.map((l) => l.database),
        ['sbtest_l1', 'sbtest_l2'],
      );
      assert.equal(suite.load, suite.loads[0]);
      assert.deepEqual(
        suite.tests.map((t) => [t.name, t.threads, t.load.database, t.seconds]),
        [
          ['point-query', [1], 'sbtest_l1', 2],
          ['point-query', [3], 'sbtest_l2', 2],
          ['read-only', [3], 'sbtest_l2', 2],
          ['point-query', [12], 'sbtest_l2', 2],
          ['read-only', [12], 'sbtest_l2', 2],
        ],
      );
    },
  );

  test("the host's cores by default, and the seconds override reaches every level", () => {
    const suite = loadSuite(write('levels', LEVELS), dir, { seconds: 1 }, scriptDirs);
    assert.equal(suite.levels[1]!.threads, availableParallelism());
    assert.ok(suite.tests.every((t) => t.seconds === 1));
  });

  test('resolveThreads: a number as it is, cores and N*cores times the cores', () => {
    assert.deepEqual(
      [resolveThreads(5, 2), resolveThreads('cores', 2), resolveThreads('2*cores', 2), resolveThreads('4*cores', 8)],
      [5, 2, 4, 32],
    );
  });

  test(
    'two levels that come to the same threads for a test: one error naming ' +
      "both levels, the host's cores and the fix",
    () => {
      // A 1-core host: 1 and cores are both 1.
      const clash = loadErrorWith(LEVELS, { cores: 1 });
      assert.match(
        clash.message,
        joined(
          /levels\[0\]\.threads = 1 and levels\[1\]\.threads = "cores" /,
          /both come to 1 thread\(s\) on this host \(cores = 1\), and /,
          /both run point-query: a test runs once per thread count; /,
          /give the levels different thread counts/,
        ),
      );
      assert.ok(clash.message.includes(join(dir, 'case.yaml')), clash.message);
      assert.equal(clash.field, 'levels[1].threads');
    },
  );

  test('levels with disjoint tests may share a thread count', () => {
    const suite = loadSuite(
      write(
        'levels',
        LEVELS.replace(
          '{ threads: cores, load: { tables: 4, table_size: 200 } }',
          '{ threads: 1, load: { tables: 4, table_size: 200 }, tests: [read-only] }',
        ),
      ),
      dir,
      { cores: 2 },
      scriptDirs,
    );
    assert.deepEqual(
      suite.tests.map((t) => `${t.name}.t${t.threads[0]}`),
      ['point-query.t1', 'read-only.t1', 'point-query.t8', 'read-only.t8'],
    );
  });

  test('a threads override is refused for a suite with levels', () => {
    assert.throws(
      () => loadSuite(write('levels', LEVELS), dir, { threads: [1] }, scriptDirs),
      /override threads = \[1\]: suite levels .* sets the threads per level \(levels:\); drop the threads override/,
    );
  });

  const cases: Array<[string, string, RegExp, string | undefined]> = [
    [
      'a misspelt cores',
      LEVELS.replace('threads: 4*cores', 'threads: "3*kores"'),
      joined(
        /levels\[2\]\.threads = "3\*kores": expected a whole number /,
        />= 1, or a count relative to the host: cores, 2\*cores, /,
        /4\*cores \(N\*cores\)/,
      ),
      'levels[2].threads',
    ],
    [
      'zero threads',
      LEVELS.replace('threads: 1,', 'threads: 0,'),
      /levels\[0\]\.threads = 0: expected a whole number >= 1, or a count relative to the host/,
      'levels[0].threads',
    ],
    [
      'an unknown test',
      LEVELS.replace('tests: [point-query]', 'tests: [point-qeury]'),
      joined(
        /levels\[0\]\.tests\[0\] = "point-qeury": no such test in /,
        /tests: \(did you mean "point-query"\?\); expected one of /,
        /point-query, read-only/,
      ),
      'levels[0].tests[0]',
    ],
    [
      'a level without a load',
      LEVELS.replace('load: { tables: 1, table_size: 100 }, ', ''),
      /levels\[0\]\.load = \(missing\)/,
      'levels[0].load',
    ],
    [
      'threads on a test as well',
      LEVELS.replace('script: oltp_read_only }\nlevels', 'script: oltp_read_only, threads: [2] }\nlevels'),
      joined(
        /tests\[1\]\.threads is set, but the suite has levels: each /,
        /level sets the threads of its tests; remove /,
        /tests\[1\]\.threads/,
      ),
      'tests[1].threads',
    ],
    [
      'a top-level load as well',
      LEVELS.replace('defaults:', 'load: { tables: 1, table_size: 10 }\ndefaults:'),
      /load is set, but the suite has levels: each level has its own load/,
      'load',
    ],
    [
      'neither load nor levels',
      VALID.replace('load: { tables: 2, table_size: 500 }\n', ''),
      /load is missing: add load: \{ tables: 1, table_size: 10000 \}, or levels: with a load each/,
      'load',
    ],
  ];
  for (const [what, text, pattern, field] of cases) {
    test(`names the file, field and value: ${what}`, () => {
      const err = loadError(text);
      assert.match(err.message, pattern);
      assert.ok(err.message.includes(join(dir, 'case.yaml')), err.message);
      assert.equal(err.field, field);
    });
  }
});

describe('shipped suites', () => {
  test('matrix: 1 thread on 1 table, then cores and 4*cores threads on 4 tables, every test at every level', () => {
    const suite = loadSuite('matrix', shippedDir, { cores: 2 });
    assert.deepEqual(
      suite.levels.map((l) => [l.threadsSpec, l.threads, l.load.tables]),
      [
        [1, 1, 1],
        ['cores', 2, 4],
        ['4*cores', 8, 4],
      ],
    );
    assert.equal(suite.loads.length, 2);
    const names = [...new Set(suite.tests.map((t) => t.name))];
    assert.deepEqual(names, ['update-index', 'point-query', 'read-only_range=100']);
    assert.equal(suite.tests.length, names.length * 3);
  });

  test(
    'quick: small load, 1 client thread, pairs of 1-second runs within 8 ' +
      'minutes, the required tests, all scripts found',
    () => {
      const suite = loadSuite('quick', shippedDir);
      assert.deepEqual([suite.load.tables, suite.load.tableSize], [1, 10000]);
      const names = suite.tests.map((t) => t.name);
      for (const required of [
        'point-query',
        'read-only_range=100',
        'update-index',
        'update-nonindex',
        'insert',
        'delete-insert',
      ]) {
        assert.ok(names.includes(required), `quick lacks ${required}`);
      }
      assert.equal(suite.budgetMinutes, 8);
      for (const t of suite.tests) {
        assert.equal(t.seconds, 1, t.name);
        assert.deepEqual(t.threads, [1], t.name);
      }
    },
  );

  test(
    'small-server: one table, one client, pairs of 15-30 s runs within 4 ' +
      'hours, writes then reads then insert and delete-insert',
    () => {
      const suite = loadSuite('small-server', shippedDir);
      assert.equal(suite.budgetMinutes, 240);
      assert.equal(suite.load.tables, 1);
      assert.ok(suite.load.tableSize >= 1_000_000);
      const names = suite.tests.map((t) => t.name);
      assert.deepEqual(names.slice(0, 6), [
        'update-inlist',
        'update-index',
        'update-index-kc',
        'update-nonindex',
        'update-one',
        'write-only',
      ]);
      // update-index-kc's copy of the table is made by its prepare, at load, not inside a measured run.
      assert.match(suite.load.scriptPath, /\/update-index-kc\.lua$/);
      assert.deepEqual(names.slice(-2), ['insert', 'delete-insert']);
      for (const read of [
        'point-query',
        'points-covered-pk',
        'points-covered-si',
        'points-notcovered-pk',
        'points-notcovered-si',
        'random-points_range=10',
        'random-points_range=100',
        'random-points_range=1000',
        'range-covered-pk',
        'range-covered-si',
        'range-notcovered-pk',
        'range-notcovered-si',
        'read-only_range=10',
        'read-only_range=100',
        'read-only_range=10000',
        'hot-points',
        'scan',
      ]) {
        const at = names.indexOf(read);
        assert.ok(at >= 6 && at < names.length - 2, `${read} should be among the reads`);
      }
      assert.ok(!names.some((n) => n.includes('zipf')), 'sysbench 1.0.20 has no zipfian distribution');
      for (const t of suite.tests) {
        assert.deepEqual(t.threads, [1], t.name);
        assert.ok(t.seconds >= 15 && t.seconds <= 30, `${t.name} runs ${t.seconds} s`);
      }
    },
  );

  test("cpu-bound and io-bound: the studies' other setups on 8 tables, each with a twin a small host affords", () => {
    const setups = ['cpu-bound', 'cpu-bound-small', 'io-bound', 'io-bound-small'].map((n) =>
      loadSuite(n, shippedDir, { cores: 2 }),
    );
    assert.deepEqual(
      setups.map((s) => [s.name, s.memory, s.ioBoundBufferPool, s.load.tables, s.tests[0]!.threads]),
      [
        ['cpu-bound', 'cached', undefined, 8, [2]],
        ['cpu-bound-small', 'cached', undefined, 8, [2]],
        ['io-bound', 'io-bound', undefined, 8, [40]],
        ['io-bound-small', 'io-bound', '16M', 8, [8]],
      ],
    );
    const [big, small, io, ioSmall] = setups;
    assert.deepEqual(
      small!.tests.map((t) => t.name),
      big!.tests.map((t) => t.name),
      'the twin runs the same tests',
    );
    assert.deepEqual(
      ioSmall!.tests.map((t) => t.name),
      io!.tests.map((t) => t.name),
      'the twin runs the same tests',
    );
    // The io-bound twin's data is 3 times its own pool or more (memory-setting.ts: 250 bytes a row).
    assert.ok(ioSmall!.load.tables * ioSmall!.load.tableSize * 250 >= 3 * 16 * 2 ** 20);
    assert.ok(small!.budgetMinutes <= 10 && ioSmall!.budgetMinutes <= 10);
  });
});

describe('a suite made for a memory setting', () => {
  test('names it, and for io-bound its own buffer pool; a bad value names the field and the fix', () => {
    const file = write('io', `${VALID}memory: io-bound\nio_bound_buffer_pool: 16M\n`);
    const suite = loadSuite(file, dir, {}, scriptDirs);
    assert.deepEqual([suite.memory, suite.ioBoundBufferPool], ['io-bound', '16M']);
    assert.equal(loadSuite(write('plain', VALID), dir, {}, scriptDirs).memory, undefined);
    assert.match(loadError(`${VALID}memory: disk\n`).message, /memory = "disk": expected cached or io-bound/);
    assert.match(
      loadError(`${VALID}io_bound_buffer_pool: lots\n`).message,
      /io_bound_buffer_pool = "lots": expected a size such as 1G, 512M or 8M/,
    );
  });
});
