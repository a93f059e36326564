import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore, type SampleRecord, type SessionRecord } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * The paired design end to end, as a user runs it: real mariadbd and sysbench, relaxed commits against fsync at every
 * commit, both servers up at once and restarted on fresh copies before every sweep (instance_seconds 0), each test
 * measured in alternating pairs until a look decides it.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-paired-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'tiny.yaml');

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: info
# A wide margin for the read test on a shared CI host: it must be decided ok by the second look.
test_thresholds: { point-query: 0.51 }
# New server instances before every sweep: each pair its own block, so 12 pairs make the looks at 9 and 12 blocks.
instance_seconds: 0
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
  durable: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: durable }
`,
);
writeFileSync(
  suiteFile,
  `name: tiny-paired
description: one write and one read test, pairs of 1-second runs
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - name: update-index
    script: oltp_update_index
  - name: point-query
    script: oltp_point_select
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

describe('qpswatch compare, paired design', () => {
  let view: ComparisonView;
  let samples: SampleRecord[];
  let session: SessionRecord;
  let stderr = '';

  before(async () => {
    const result = await runCli([
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
      '12',
      '--format',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    stderr = result.stderr;
    view = JSON.parse(result.stdout) as ComparisonView;
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      samples = await store.completedSamples(view.sessionId);
      session = (await store.getSession(view.sessionId))!;
    } finally {
      await store.close();
    }
  });

  test(
    'the write test is a regression at the first look (9 blocks), the read test ok by the second (12), and a ' +
      'decided test gets no more pairs',
    () => {
      const verdict = (name: string) => view.tests.find((t) => t.test === name)?.verdict;
      assert.equal(verdict('update-index')?.kind, 'regression');
      assert.equal(verdict('update-index')?.pairs, 9);
      assert.equal(verdict('point-query')?.kind, 'ok');
      assert.ok(
        [9, 12].includes(verdict('point-query')!.pairs),
        `point-query decided at ${verdict('point-query')!.pairs} pairs`,
      );
      const sweeps = Math.max(...samples.map((s) => s.round));
      assert.equal(sweeps, verdict('point-query')!.pairs, 'the session stops at the look that decides its last test');
      for (const name of ['update-index', 'point-query']) {
        const pairs = samples.filter((s) => s.test === name);
        assert.equal(pairs.length, 2 * verdict(name)!.pairs, `${name}: a pair of runs in every sweep until decided`);
      }
    },
  );

  test('every verdict states its interval and the drop the session could detect', () => {
    for (const row of view.tests) {
      const v = row.verdict!;
      assert.ok(
        v.low > 0 && v.low <= row.relativeQps && row.relativeQps <= (v.high ?? Infinity),
        `${row.test}: ${v.low} <= ${row.relativeQps} <= ${v.high}`,
      );
      assert.ok(v.detectableDrop > 0 && v.detectableDrop < 1, `${row.test}: detectable drop ${v.detectableDrop}`);
      assert.ok(v.pairs === 9 || v.pairs === 12, `${row.test}: ${v.pairs} pairs`);
    }
  });

  test('the two halves of each pair alternate in order, sweep by sweep', () => {
    const firstRole = (name: string, sweep: number) =>
      samples.filter((s) => s.test === name && s.round === sweep).sort((a, b) => a.id - b.id)[0]!.role;
    for (const name of ['update-index', 'point-query']) {
      const order = Array.from({ length: 8 }, (_, i) => firstRole(name, i + 1));
      assert.deepEqual(
        order.slice(0, 4),
        order[0] === 'baseline'
          ? ['baseline', 'candidate', 'baseline', 'candidate']
          : ['candidate', 'baseline', 'candidate', 'baseline'],
        name,
      );
    }
  });

  test('both servers were started again for every sweep; the session records its design and hold', () => {
    const sweeps = Math.max(...samples.map((s) => s.round));
    const sessionDir = join(stateDir, 'work', `session-${view.sessionId}`);
    for (const role of ['baseline', 'candidate']) {
      const [target] = readdirSync(join(sessionDir, role));
      const log = readFileSync(join(sessionDir, role, target!, 'error.log'), 'utf8');
      // One start to load the tables, then new instances for every sweep.
      assert.equal(
        log.match(/ready for connections/g)?.length,
        1 + sweeps,
        `${role}: ${log.match(/ready for connections/g)?.length} starts`,
      );
    }
    assert.equal(session.settings['design'], 'paired');
    assert.equal(session.settings['idleServer'], 'drain');
    assert.equal(typeof session.settings['idleStatesHeld'], 'boolean');
    if (process.getuid?.() === 0)
      assert.equal(session.settings['idleStatesHeld'], true, 'root can hold /dev/cpu_dma_latency');
    assert.match(stderr, /look at 9 blocks: [12] of 2 open test\(s\) decided/);
  });
});
