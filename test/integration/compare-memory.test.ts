import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore, type SessionRecord } from '../../src/store/index.js';
import { messageLines, runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { joined } from '../helpers/pattern.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * One suite under both memory settings, as a user runs it: real mariadbd and sysbench, a table of about 36 MB.
 * io-bound gives each server an 8M buffer pool and O_DIRECT, so point queries read from the disk; cached keeps the
 * relaxed profile's 1G pool and reads the table into it first, so they read nothing. O_DIRECT needs a disk
 * filesystem: the test works under /var/tmp, not /tmp, which is a tmpfs on many hosts.
 */
const dir = letServerPass(mkdtempSync('/var/tmp/qpswatch-memory-'));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'point.yaml');
const bigSuiteFile = join(dir, 'big.yaml');
// The host lock of a test run (QPSWATCH_HOST_LOCK) reaches the CLI; without one it uses the default.
const env: Record<string, string> =
  process.env['QPSWATCH_HOST_LOCK'] !== undefined ? { QPSWATCH_HOST_LOCK: process.env['QPSWATCH_HOST_LOCK'] } : {};

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: info
instance_seconds: 0
io_bound_buffer_pool: 8M
# A/A: a wide margin decides the one test ok at the first look.
test_thresholds: { point-query: 0.51 }
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
`,
);
writeFileSync(
  suiteFile,
  `name: point-memory
description: point queries on a table several times an 8M pool
load: { tables: 1, table_size: 150000 }
warmup: { script: oltp_point_select, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - name: point-query
    script: oltp_point_select
`,
);
writeFileSync(
  bigSuiteFile,
  `name: big-memory
description: 4 tables of 1M rows (about 1 GB), more than the relaxed profile's 1G pool holds
load: { tables: 4, table_size: 1000000 }
warmup: { script: oltp_point_select, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - name: point-query
    script: oltp_point_select
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

async function storedSessions(): Promise<SessionRecord[]> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
  try {
    return await store.listSessions({ limit: 100 });
  } finally {
    await store.close();
  }
}

describe('qpswatch compare --memory cached,io-bound', () => {
  let cached: ComparisonView;
  let ioBound: ComparisonView;
  let stderr = '';

  before(async () => {
    const result = await runCli(
      [
        '--config',
        configFile,
        'compare',
        '--baseline',
        'relaxed',
        '--candidate',
        'relaxed',
        '--suite',
        suiteFile,
        '--pairs',
        '8',
        '--memory',
        'cached,io-bound',
        '--format',
        'json',
      ],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    stderr = result.stderr;
    const views = JSON.parse(result.stdout) as ComparisonView[];
    assert.equal(views.length, 2);
    [cached, ioBound] = [views[0]!, views[1]!];
  });

  test('one session per memory setting, each view and stored session naming its setting', async () => {
    assert.equal(cached.memory, 'cached');
    assert.equal(ioBound.memory, 'io-bound');
    const sessions = await storedSessions();
    assert.deepEqual(
      sessions.map((s) => [s.id, s.state, s.settings['memory']]).sort(),
      [
        [cached.sessionId, 'done', 'cached'],
        [ioBound.sessionId, 'done', 'io-bound'],
      ].sort(),
    );
  });

  test('io-bound: point queries read from the data device (r/o and rKB/o well above 0) and miss the pool', (t) => {
    const row = ioBound.tests.find((x) => x.test === 'point-query')!;
    for (const side of [row.baseline, row.candidate]) {
      t.diagnostic(
        `io-bound: r/o ${side.perOp.readsPerOp}, rKB/o ` +
          `${side.perOp.readKBPerOp}, hit ratio ${side.hitRatio}, qps ${side.qps}`,
      );
      assert.ok(side.perOp.readsPerOp > 0.3, `r/o ${side.perOp.readsPerOp}`);
      assert.ok(side.perOp.readKBPerOp > 4, `rKB/o ${side.perOp.readKBPerOp}`);
      assert.ok(side.hitRatio !== undefined && side.hitRatio < 0.9, `hit ratio ${side.hitRatio}`);
    }
  });

  test(
    'cached: the table is read into the pool first, and point queries read ' +
      'about nothing, at a hit ratio of about 1',
    (t) => {
      const row = cached.tests.find((x) => x.test === 'point-query')!;
      for (const side of [row.baseline, row.candidate]) {
        t.diagnostic(
          `cached: r/o ${side.perOp.readsPerOp}, rKB/o ${side.perOp.readKBPerOp}, ` +
            `hit ratio ${side.hitRatio}, qps ${side.qps}`,
        );
        assert.ok(side.perOp.readsPerOp < 0.01, `r/o ${side.perOp.readsPerOp}`);
        assert.ok(side.perOp.readKBPerOp < 0.1, `rKB/o ${side.perOp.readKBPerOp}`);
        assert.ok(side.hitRatio !== undefined && side.hitRatio > 0.999, `hit ratio ${side.hitRatio}`);
      }
      const readIns = stderr
        .split('\n')
        .filter((l) => l.includes('read into the buffer pool'))
        .map((l) => JSON.parse(l) as { firstPassPages: number; secondPassPages: number });
      // Each server instance reads the table in after its start: at least one per side (instance restarts add more).
      assert.ok(readIns.length >= 2, `both servers read the table in: ${readIns.length} read-ins`);
      for (const r of readIns) {
        t.diagnostic(
          `read-in: ${r.firstPassPages} pages, ` +
            `${(r.firstPassPages * 16384) / 150000} bytes per row; second pass ` +
            `${r.secondPassPages}`,
        );
        assert.ok(r.firstPassPages > 1000, `first pass ${r.firstPassPages} pages`);
        assert.equal(r.secondPassPages, 0);
      }
    },
  );

  test('show prints the memory setting in every heading and the hit ratio per test', async () => {
    const shown = await runCli(['--config', configFile, 'show', String(ioBound.sessionId)], { env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Relative QPS \(C\/B\), memory io-bound/);
    assert.match(shown.stdout, /Per operation: point-query\.t1, memory io-bound/);
    assert.match(shown.stdout, /^buffer pool hit ratio: B \d+\.\d\d%, C \d+\.\d\d%$/m);
  });

  test('a cached setting too small for its data is refused before loading, in one line with the sizes', async () => {
    const before = await storedSessions();
    const result = await runCli(
      [
        '--config',
        configFile,
        'compare',
        '--baseline',
        'relaxed',
        '--candidate',
        'relaxed',
        '--suite',
        bigSuiteFile,
        '--memory',
        'cached',
      ],
      { env },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.deepEqual(messageLines(result.stderr), [
      'qpswatch: memory setting cached: the data of suite big-memory (about ' +
        '953.7 MiB: 4 table(s) x 1000000 rows x 250 bytes) does not fit in the ' +
        'buffer pool of server profile relaxed ' +
        ('(innodb_buffer_pool_size 1.0 GiB; it needs 1.2 GiB to hold the data ' +
          'with room to spare): set innodb_buffer_pool_size to 1193M or more in ' +
          'server profile relaxed, or use a suite with fewer rows'),
    ]);
    assert.equal((await storedSessions()).length, before.length, 'no session was started');
  });
});

describe('qpswatch compare --memory: bad input', () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ['--memory', 'swap'],
      joined(
        /^qpswatch: --memory "swap": expected cached, io-bound or /,
        /both, comma-separated, each once \(e\.g\. cached,io-bound\)/,
      ),
    ],
    [['--memory', 'cached,cached'], /^qpswatch: --memory "cached,cached": expected cached, io-bound or both/],
    [
      ['--memory', 'cached,io-bound', '--format', 'html'],
      /^qpswatch: --format html prints one session, and --memory names two: .*qpswatch show ID --format html/,
    ],
  ];
  for (const [args, message] of cases) {
    test(`${args.join(' ')}: one line, exit 2, before any server starts`, async () => {
      const result = await runCli(
        [
          '--config',
          configFile,
          'compare',
          '--baseline',
          'relaxed',
          '--candidate',
          'relaxed',
          '--suite',
          suiteFile,
          ...args,
        ],
        { env },
      );
      assert.equal(result.code, 2, result.stderr);
      assert.match(messageLines(result.stderr)[0] ?? '', message);
    });
  }
});
