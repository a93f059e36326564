import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore, type SampleRecord } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * `qpswatch compare` end to end, as a user runs it: the real mariadbd and sysbench, two targets that differ only in
 * their server profile (relaxed commits against fsync at every commit), a tiny suite, two rounds.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-compare-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'tiny.yaml');

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: warn
# 2 rounds reach a p-value of 1/6 at best: alpha 0.2 lets this short whole-run session start.
alpha: 0.2
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
  durable: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: durable }
`,
);
writeFileSync(
  suiteFile,
  `name: tiny
description: two 2-second tests on a small table
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 2, threads: [1] }
tests:
  - name: update-index
    script: oltp_update_index
  - name: point-query
    script: oltp_point_select
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

/** The "queries: N (X per sec.)" rate of every sysbench run in a log, in the order they ran (prepare prints none). */
function printedRates(logFile: string): number[] {
  return [...readFileSync(logFile, 'utf8').matchAll(/^\s+queries:\s+\d+\s+\((\d+(?:\.\d+)?) per sec\.\)$/gm)].map((m) =>
    Number(m[1]),
  );
}

describe('qpswatch compare', () => {
  let view: ComparisonView;
  let samples: SampleRecord[];

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
      '--rounds',
      '2',
      '--format',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    view = JSON.parse(result.stdout) as ComparisonView;
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      samples = await store.completedSamples(view.sessionId);
    } finally {
      await store.close();
    }
  });

  test('reports relative QPS per test with plausible per-op figures', () => {
    assert.deepEqual(
      view.tests.map((t) => t.test),
      ['update-index', 'point-query'],
    );
    for (const row of view.tests) {
      assert.equal(row.baseline.samples, 2);
      assert.equal(row.candidate.samples, 2);
      assert.ok(row.relativeQps > 0 && Number.isFinite(row.relativeQps));
      assert.ok(row.baseline.perOp.cpuPerOp > 0, 'cpu/o above 0');
      assert.ok((row.candidate.perOp.cpuMicrosPerOp ?? 0) > 0, 'cpuµs/o above 0');
    }
    const update = view.tests[0]!;
    assert.ok(update.baseline.perOp.writeKBPerOp > 0, 'wKB/o above 0 on a write test');
    assert.ok(update.candidate.perOp.writeKBPerOp > 0, 'wKB/o above 0 on a write test');
  });

  test('fsync at every commit costs the write test throughput', () => {
    const update = view.tests.find((t) => t.test === 'update-index')!;
    assert.ok(update.relativeQps < 0.9, `durable/relaxed on update-index = ${update.relativeQps}`);
  });

  test('every stored QPS is the one sysbench printed for that run', () => {
    assert.equal(samples.length, 8);
    for (const role of ['baseline', 'candidate'] as const) {
      const rates = printedRates(
        join(stateDir, 'work', `session-${view.sessionId}`, role, view[role].name, 'sysbench.log'),
      );
      // Per round: the warm-up run, then each test; rounds in the order they ran.
      assert.equal(rates.length, 2 * 3);
      const measured = rates.filter((_, i) => i % 3 !== 0);
      const stored = samples
        .filter((s) => s.role === role)
        .sort((a, b) => a.id - b.id)
        .map((s) => s.qps);
      assert.deepEqual(stored, measured);
    }
  });

  test('rounds alternate the order of the sides', () => {
    const order = samples.sort((a, b) => a.id - b.id).map((s) => `${s.round}${s.role[0]}`);
    assert.deepEqual([...new Set(order)], ['1b', '1c', '2c', '2b']);
  });

  test('the datadirs are removed, the logs kept', () => {
    const base = join(stateDir, 'work', `session-${view.sessionId}`, 'baseline', 'relaxed');
    assert.throws(() => readFileSync(join(base, 'snapshot', 'ibdata1')), /ENOENT/);
    assert.match(readFileSync(join(base, 'error.log'), 'utf8'), /ready for connections/);
  });
});
