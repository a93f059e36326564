import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { studentQuantile } from '../../../src/analysis/index.js';
import type { Verdict } from '../../../src/model/index.js';
import { confirmOwed, type CheckDeps } from '../../../src/checks/index.js';
import { releaseFigureReader, seriesHistory } from '../../../src/views/index.js';
import { renderHistory } from '../../../src/report/index.js';
import { openStore, type Store, type TargetRef } from '../../../src/store/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { sampleInput } from '../store/store-inputs.js';
import { joined } from '../../helpers/pattern.js';

/**
 * A series in a real SQLite store: 1.0.0 (the base) to 1.0.4, each release checked against the one before (its last
 * good) at 0.97 with a log standard error of 0.01, so 1.0.4 is 0.97^4 = 0.885 of the base through the chain. The
 * samples' medians say otherwise on purpose (each release 1% slower), so the test tells chained from median.
 * point-query's check of 1.0.2 was stored without a standard error: from there on, point-query has medians only.
 * 1.0.5 is an imported row.
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
const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4'];
const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');
const verdicts = { threshold: 0.95, testThresholds: {}, confidence: 0.95 };

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

function verdict(test: string, relativeQps: number, logSe: number | null): Verdict {
  return {
    test,
    threads: 1,
    kind: 'ok',
    relativeQps,
    threshold: 0.95,
    pSlower: 0.5,
    pFaster: 0.5,
    baselineSpread: 0.01,
    low: relativeQps * 0.98,
    high: relativeQps * 1.02,
    confidence: 0.95,
    detectableDrop: 0.04,
    // Many pairs: each check's error is close to normal (198 degrees of freedom), as the figures below assume.
    pairs: 200,
    noise: 0.03,
    orderEffect: 1,
    logSe,
    hint: [],
  };
}

describe('the chain to the base from a real SQLite store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-chain-'));
  let store: Store;

  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    const hostId = await store.upsertHost({
      fingerprintId: 'fp-chain',
      fingerprint: { cpuModel: 'Test CPU', threads: 2 },
    });
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
      for (const [role, version, step] of [
        ['baseline', b, i - 1],
        ['candidate', c, i],
      ] as const) {
        for (const test of ['insert', 'point-query'])
          await store.addSample(
            sessionId,
            sampleInput({ round: 1, role, targetName: `v${version}`, test, threads: 1, qps: 1000 * 0.99 ** step }),
          );
      }
      await store.finishSession(sessionId);
      await store.recordCheck({
        sessionId,
        releaseId: id(c),
        baselineReleaseId: id(b),
        outcome: 'ok',
        openEvents: [],
        fixedEventIds: [],
        messages: [],
        verdicts: [verdict('insert', 0.97, 0.01), verdict('point-query', 1, c === '1.0.2' ? null : 0.01)],
      });
    }
    const row = {
      flavor: 'mariadb',
      version: '1.0.5',
      versionKey: key('1.0.5'),
      threads: 1,
      qps: 800,
      cpuPerOp: 0.01,
      csPerOp: 1,
      readsPerOp: 0,
      readKBPerOp: 0,
      writeKBPerOp: 0,
    };
    await store.importResults(
      [
        { ...row, test: 'insert' },
        { ...row, test: 'point-query' },
      ],
      'old.csv',
    );
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'history: 1.0.4 is 0.885 of the base through four checks, with the ' + 'interval of their summed variances',
    async () => {
      const view = await seriesHistory(store, upstream, { verdicts });
      assert.deepEqual(
        view.versions.map((v) => v.version),
        [...versions, '1.0.5'],
      );
      const insert = view.tests.find((t) => t.test === 'insert')!;
      const fourth = insert.chained![4]!;
      assert.equal(fourth.relativeQps.toFixed(3), '0.885');
      assert.equal(fourth.steps, 4);
      // Student's t at the Welch degrees of freedom of four checks of 198 each: 792.
      const margin = Math.exp(studentQuantile(0.975, 792) * 0.02);
      assert.ok(
        Math.abs(fourth.low - 0.97 ** 4 / margin) < 1e-6 && Math.abs(fourth.high - 0.97 ** 4 * margin) < 1e-6,
        `${fourth.low}-${fourth.high}`,
      );
      assert.equal(insert.chained![5], null, 'the imported row is not chained');
      assert.equal(insert.threshold, 0.95);
    },
  );

  test('history: a verdict without a standard error, and what chains through it, keep the medians', async () => {
    const view = await seriesHistory(store, upstream, { verdicts });
    const point = view.tests.find((t) => t.test === 'point-query')!;
    assert.deepEqual(
      point.chained!.map((c) => (c === null ? null : Number(c.relativeQps.toFixed(3)))),
      [1, 1, null, null, null, null],
    );
  });

  test(
    'report: chained cells, the imported and unchained ones marked as ' + 'medians, drift suspected at 1.0.4',
    async () => {
      const text = renderHistory(await seriesHistory(store, upstream, { verdicts }), 'text');
      // The writes' table at 1 thread: a row per version, a column per test of the family.
      const table = text
        .split(/^Relative QPS at /m)
        .find((section) => section.startsWith('1 thread: writes '))!
        .split('\n\n')[1]!
        .split('\n')
        .map((l) => l.trim().split(/ {2,}/));
      const column = table[0]!.indexOf('insert');
      const insert = ['insert.t1', ...table.slice(1).map((row) => row[column])];
      // Each check's 3% drop is 3.05 of its standard errors and over half the margin: each release is marked as a step.
      assert.deepEqual(insert, [
        'insert.t1',
        '1.00',
        '\u25bc0.97 (0.95-0.99)',
        '\u25bc0.94 (0.92-0.97)',
        '\u25bc0.91 (0.88-0.94)',
        '\u25bc0.89 (0.85-0.92)',
        '0.80~',
      ]);
      assert.match(
        text,
        joined(
          /^insert\.t1: drift suspected at 1\.0\.4 \(chained 0\.885 of /,
          /base, interval 0\.851-0\.921\); confirm with `qpswatch check /,
          /v1\.0\.4 --against-base`$/m,
        ),
      );
      assert.match(text, /^~ median of unpaired runs, no interval$/m);
    },
  );

  test(
    'metrics: relative QPS against the base from the chain with its ' + 'interval; medians where there is no chain',
    async () => {
      const rows = await releaseFigureReader(store, [upstream], {
        versionsPerSeries: 20,
        thresholds: verdicts,
        confidence: 0.95,
      })();
      const row = (version: string, test: string) =>
        rows.find((r) => r.labels.version === version && r.labels.test === test)!;
      assert.equal(row('1.0.4', 'insert').relativeQps?.toFixed(3), '0.885');
      assert.ok(row('1.0.4', 'insert').relativeQpsLow! < 0.885 && row('1.0.4', 'insert').relativeQpsHigh! > 0.885);
      assert.deepEqual(
        [
          row('1.0.0', 'insert').relativeQps,
          row('1.0.0', 'insert').relativeQpsLow,
          row('1.0.0', 'insert').relativeQpsHigh,
        ],
        [1, 1, 1],
      );
      // point-query from 1.0.2 on: the median ratio, 0.99^3 at 1.0.3, and no interval.
      assert.equal(row('1.0.3', 'point-query').relativeQps?.toFixed(4), (0.99 ** 3).toFixed(4));
      assert.deepEqual(
        [row('1.0.3', 'point-query').relativeQpsLow, row('1.0.3', 'point-query').relativeQpsHigh],
        [null, null],
      );
    },
  );

  test(
    'a retry owes the confirmation its stored check asked for, until a ' + 'check against the base follows it',
    async () => {
      const deps = {
        store,
        upstreams: [upstream],
        log: silentLog,
        signal: new AbortController().signal,
      } as unknown as CheckDeps;
      const release = (await store.listReleases('demo')).find((r) => r.version === '1.0.4')!;
      let sessionStarts = 0;
      const owed = await confirmOwed(release, { release, suite: {} as never, rounds: 1 }, deps, async () => {
        sessionStarts += 1;
      });
      // insert is under the threshold through the chain; the base has no build here, so the session is not started.
      assert.deepEqual(
        owed?.suspicions.map((s) => [s.test, s.chained.relativeQps.toFixed(3), s.chained.steps]),
        [['insert', '0.885', 4]],
      );
      assert.match(
        owed?.unconfirmed ?? '',
        joined(
          /^not confirmed: the base v1\.0\.0 is not built \(qpswatch /,
          /build v1\.0\.0, then qpswatch check v1\.0\.4 /,
          /--against-base\)$/,
        ),
      );
      assert.equal(sessionStarts, 0);
      const nothingOwed = (await store.listReleases('demo')).find((r) => r.version === '1.0.1')!;
      assert.equal(
        await confirmOwed(nothingOwed, { release: nothingOwed, suite: {} as never, rounds: 1 }, deps),
        undefined,
        '1.0.1 is at 0.97 of the base: no suspicion',
      );
    },
  );
});
