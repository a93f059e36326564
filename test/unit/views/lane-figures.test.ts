import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { judgeInstructionTest } from '../../../src/analysis/index.js';
import type { Verdict } from '../../../src/model/index.js';
import { renderHistory } from '../../../src/report/index.js';
import { openStore, type Store, type TargetRef } from '../../../src/store/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { createMetricsExposition } from '../../../src/metrics/index.js';
import { fleetMetricsSource, releaseFigureReader, seriesHistory } from '../../../src/views/index.js';
import { sampleInput } from '../store/store-inputs.js';

/**
 * The instructions lane's figures in history and /metrics, from a real SQLite store: 1.0.0 (the base) to 1.0.3, each
 * release checked against the one before, point-query.t1 counted by the lane at 1.2% more instructions per query each
 * release. Against its last good each step is ok (under the 2% threshold); against the base, from the stored counts
 * directly, 1.0.2 is 2.4% over it and 1.0.3 3.6%: the drift no chain of checks is needed to see. insert.t8 is not a
 * lane test.
 */
const upstream = parseUpstream({
  name: 'demo',
  remote: '/srv/git/server',
  flavor: 'mariadb',
  series: '1.0',
  base: '1.0.0',
  build_profile: 'mariadb-rel',
  server_profile: 'small-server',
});
const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3'];
const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');
const perQuery = (v: string): number => 40_000 * 1.012 ** versions.indexOf(v);
const LANE = { threshold: 1.02, testThresholds: {} };

function side(version: string): TargetRef {
  return {
    name: `v${version}`,
    flavor: 'mariadb',
    version,
    binary: `/b/${version}/bin/mariadbd`,
    serverProfile: 'small-server',
    description: {
      kind: 'release',
      upstream: 'demo',
      tag: `v${version}`,
      commit: 'a'.repeat(40),
      buildKey: `k-${version}`,
    },
  };
}

function verdict(test: string, threads: number): Verdict {
  return {
    test,
    threads,
    kind: 'ok',
    relativeQps: 1,
    threshold: 0.95,
    pSlower: 0.5,
    pFaster: 0.5,
    baselineSpread: 0.01,
    low: 0.98,
    high: 1.02,
    confidence: 0.95,
    detectableDrop: 0.04,
    pairs: 20,
    noise: 0.03,
    orderEffect: 1,
    logSe: 0.01,
    hint: [],
  };
}

/** Two repeats a side, a few instructions apart, as callgrind counts them. */
const repeats = (v: string): number[] => [Math.round(perQuery(v) * 2000), Math.round(perQuery(v) * 2000) + 40];

describe('the instructions lane in history and metrics, from a real SQLite store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-lane-figures-'));
  let store: Store;

  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    const hostId = await store.upsertHost({ fingerprintId: 'fp-lane', fingerprint: { cpuModel: 'Test', threads: 2 } });
    const { added } = await store.recordReleases(
      versions.map((v) => ({
        upstream: 'demo',
        flavor: 'mariadb',
        tag: `v${v}`,
        commit: 'a'.repeat(40),
        version: v,
        versionKey: key(v),
      })),
    );
    const id = (v: string): number => added.find((r) => r.version === v)!.id;
    for (let i = 1; i < versions.length; i++) {
      const [b, c] = [versions[i - 1]!, versions[i]!];
      const sessionId = await store.createSession({
        kind: 'compare',
        hostId,
        baseline: side(b),
        candidate: side(c),
        suite: 'quick',
        rounds: 2,
        pid: process.pid,
        settings: {},
      });
      for (const [role, version] of [
        ['baseline', b],
        ['candidate', c],
      ] as const) {
        for (const [test, threads] of [
          ['point-query', 1],
          ['insert', 8],
        ] as const)
          await store.addSample(
            sessionId,
            sampleInput({
              round: 1,
              role,
              targetName: `v${version}`,
              test,
              threads,
              qps: 1000,
              offCpuMicrosPerOp: 800,
            }),
          );
        for (const [repeat, instructions] of repeats(version).entries())
          await store.addInstructionRun(sessionId, {
            role,
            target: `v${version}`,
            buildKey: `k-${version}`,
            test: 'point-query',
            threads: 1,
            repeat: repeat + 1,
            instructions,
            queries: 2000,
            conditions: { test: 'point-query' },
            conditionKey: 'c1',
            seconds: 20,
          });
      }
      await store.recordInstructionLane(sessionId, { state: 'done', counter: 'callgrind', runs: 4, seconds: 80 });
      await store.finishSession(sessionId);
      const lane = judgeInstructionTest(
        { test: 'point-query', threads: 1 },
        repeats(b).map((n) => n / 2000),
        repeats(c).map((n) => n / 2000),
        1.02,
      );
      await store.recordCheck({
        sessionId,
        releaseId: id(c),
        baselineReleaseId: id(b),
        outcome: 'ok',
        openEvents: [],
        fixedEventIds: [],
        messages: [],
        verdicts: [verdict('point-query', 1), verdict('insert', 8)],
        instructions: { verdicts: [lane], openEvents: [], fixedEventIds: [] },
      });
    }
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('history: per version the count, its ratio to the base directly; a test the lane skips has none', async () => {
    const view = await seriesHistory(store, upstream, { instructions: LANE });
    const point = view.tests.find((t) => t.test === 'point-query')!;
    assert.deepEqual(
      point.instructions?.map((c) => [Math.round(c!.perQuery), c!.relativeToBase?.toFixed(4), c!.verdict]),
      [
        [40_000, '1.0000', null],
        [40_480, '1.0120', 'ok'],
        [40_966, '1.0241', 'regression'],
        [41_457, '1.0364', 'regression'],
      ],
    );
    assert.equal(view.tests.find((t) => t.test === 'insert')!.instructions, undefined);
    const text = renderHistory(view, 'text');
    assert.match(text, /^1\.0\.3 +41,457 \(1\.0364\)$/m);
    assert.match(
      text,
      /^point-query\.t1: 1\.0364 \(repeats [0-9.]+-[0-9.]+\) of the base's instructions per query at 1\.0\.3/m,
    );
  });

  test('history: --base another version is the ratio to that one', async () => {
    const view = await seriesHistory(store, upstream, { base: '1.0.2', instructions: LANE });
    const point = view.tests.find((t) => t.test === 'point-query')!;
    assert.deepEqual(
      point.instructions?.map((c) => c!.relativeToBase?.toFixed(4)),
      [(1 / 1.012 ** 2).toFixed(4), (1 / 1.012).toFixed(4), '1.0000', '1.0120'],
    );
  });

  test('metrics: instructions per query, against the base directly and against the last good', async () => {
    const rows = await releaseFigureReader(store, [upstream], {
      versionsPerSeries: 20,
      thresholds: { threshold: 0.95, testThresholds: {} },
      instructions: LANE,
    })();
    const row = (version: string, test: string) =>
      rows.find((r) => r.labels.version === version && r.labels.test === test)!;
    const cases: Array<[string, number, string, string | null]> = [
      // version, instructions per query, relative to the base, relative to the last good (its check's C/B)
      ['1.0.0', 40_000, '1.0000', null],
      ['1.0.1', 40_480, '1.0120', '1.0120'],
      ['1.0.2', 40_966, '1.0241', '1.0120'],
      ['1.0.3', 41_457, '1.0364', '1.0120'],
    ];
    for (const [version, count, base, lastGood] of cases) {
      const r = row(version, 'point-query');
      assert.deepEqual(
        [
          Math.round(r.instructionsPerQuery!),
          r.instructionsRelativeToBase?.toFixed(4),
          r.instructionsRelativeToLastGood?.toFixed(4) ?? null,
        ],
        [count, base, lastGood],
        version,
      );
    }
    const insert = row('1.0.3', 'insert');
    assert.deepEqual(
      [insert.instructionsPerQuery, insert.instructionsRelativeToBase, insert.instructionsRelativeToLastGood],
      [null, null, null],
    );
  });

  test('the exposition: the four families the dashboards read, with the per-release labels', async () => {
    const source = fleetMetricsSource(store, [upstream], {
      versionsPerSeries: 20,
      thresholds: { threshold: 0.95, testThresholds: {} },
      instructions: LANE,
      build: { version: '0.0.0' },
    });
    const text = await createMetricsExposition(source).metrics();
    const labels = (version: string, test: string, threads: number) =>
      `{host="fp-lane",flavor="mariadb",series="demo",version="${version}",version_key="${key(version)}",` +
      `test="${test}",threads="${threads}",profile="small-server"}`;
    const value = (family: string, version: string, test = 'point-query', threads = 1) =>
      text
        .split('\n')
        .find((l) => l.startsWith(`${family}${labels(version, test, threads)} `))
        ?.split(' ')
        .at(-1);
    assert.equal(Number(value('qpswatch_instructions_per_query', '1.0.0')).toFixed(2), '40000.01');
    assert.equal(Number(value('qpswatch_instructions_relative_to_base_ratio', '1.0.2')).toFixed(4), '1.0241');
    assert.equal(Number(value('qpswatch_instructions_relative_to_last_good_ratio', '1.0.2')).toFixed(4), '1.0120');
    assert.equal(
      value('qpswatch_instructions_relative_to_last_good_ratio', '1.0.0'),
      undefined,
      'the base was never checked',
    );
    // Off-CPU time per operation in seconds: the 800 µs the per-op tables show as offµs/o.
    assert.equal(value('qpswatch_off_cpu_seconds_per_op', '1.0.1'), '0.0008');
    assert.equal(value('qpswatch_off_cpu_seconds_per_op', '1.0.1', 'insert', 8), '0.0008');
    assert.equal(value('qpswatch_instructions_per_query', '1.0.1', 'insert', 8), undefined, 'not a lane test');
  });
});
