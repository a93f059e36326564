import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore, type SampleRecord, type SessionRecord } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A suite of two concurrency levels through the real paired compare: 1 thread on 1 table and 2 threads on 2 tables of
 * their own, real mariadbd and sysbench, relaxed commits against fsync at every commit. Kept short: 10 pairs at most,
 * new server instances before every sweep (four tests at alpha 0.01 need 10 blocks for a verdict).
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-levels-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'two-levels.yaml');
const hostLock = process.env['QPSWATCH_HOST_LOCK'];

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: info
test_thresholds: { point-query: 0.51 }
instance_seconds: 0
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
  durable: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: durable }
`,
);
writeFileSync(
  suiteFile,
  `name: two-levels
description: two levels of one write and one read test, pairs of 1-second runs
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 1 }
tests:
  - name: update-index
    script: oltp_update_index
  - name: point-query
    script: oltp_point_select
levels:
  - threads: 1
    load: { tables: 1, table_size: 2000 }
  - threads: 2
    load: { tables: 2, table_size: 1000 }
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

describe('qpswatch compare, a suite with two levels', () => {
  let view: ComparisonView;
  let text: string;
  let samples: SampleRecord[];
  let session: SessionRecord;

  before(async () => {
    const env: Record<string, string> = hostLock !== undefined ? { QPSWATCH_HOST_LOCK: hostLock } : {};
    const result = await runCli(
      [
        '--config',
        configFile,
        'compare',
        '--baseline',
        'relaxed',
        '--candidate',
        'durable',
        '--suite',
        suiteFile,
        '--pairs',
        '10',
        '--format',
        'json',
      ],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    view = JSON.parse(result.stdout) as ComparisonView;
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      samples = await store.completedSamples(view.sessionId);
      session = (await store.getSession(view.sessionId))!;
    } finally {
      await store.close();
    }
    const shown = await runCli(['--config', configFile, 'show', String(view.sessionId)], { env });
    assert.equal(shown.code, 0, shown.stderr);
    text = shown.stdout;
  });

  test('every test has a verdict per level; the write test is a regression at both', () => {
    const verdict = (name: string, threads: number) =>
      view.tests.find((t) => t.test === name && t.threads === threads)?.verdict;
    assert.deepEqual(view.tests.map((t) => `${t.test}.t${t.threads}`).sort(), [
      'point-query.t1',
      'point-query.t2',
      'update-index.t1',
      'update-index.t2',
    ]);
    assert.equal(verdict('update-index', 1)?.kind, 'regression');
    assert.equal(verdict('update-index', 2)?.kind, 'regression');
    for (const threads of [1, 2])
      assert.ok(verdict('point-query', threads) !== undefined, `point-query.t${threads} has a verdict`);
  });

  test('each level ran at its threads, a pair in every sweep, on its own load', () => {
    const sweeps = Math.max(...samples.map((s) => s.round));
    for (const key of ['update-index.1', 'update-index.2', 'point-query.1', 'point-query.2']) {
      const [name, threads] = key.split('.');
      assert.equal(samples.filter((s) => s.test === name && s.threads === Number(threads)).length, 2 * sweeps, key);
    }
    assert.deepEqual(session.settings['levels'], [
      { threads: 1, threadsSpec: 1, tables: 1, tableSize: 2000, tests: ['update-index', 'point-query'] },
      { threads: 2, threadsSpec: 2, tables: 2, tableSize: 1000, tests: ['update-index', 'point-query'] },
    ]);
  });

  test('the report names the levels and a row per test and level', () => {
    assert.match(text, /^levels: t1 on 1 x 2000 rows; t2 on 2 x 1000 rows$/m);
    for (const label of ['update-index.t1', 'update-index.t2', 'point-query.t1', 'point-query.t2'])
      assert.match(text, new RegExp(`^${label.replace('.', '\\.')} `, 'm'));
  });
});
