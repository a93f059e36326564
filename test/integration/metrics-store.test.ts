import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { judgeInstructionTest, median } from '../../src/analysis/index.js';
import { ExecNotFoundError, run } from '../../src/exec/index.js';
import type { Logger } from '../../src/log/index.js';
import { startMetricsServer, type DaemonStatus, type MetricsServer } from '../../src/metrics/index.js';
import { seriesReleaseSamples, storeMetricsSource } from '../../src/views/index.js';
import { openStore, type SampleInput, type Store, type TargetRef } from '../../src/store/index.js';
import { parseUpstream, type Upstream } from '../../src/upstream/index.js';
import { sampleInput } from '../unit/store/store-inputs.js';

const log: Logger = pino({ level: 'silent' });
const FINGERPRINT_ID = 'fp-metrics-4cpu';
const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');

const mariadb = parseUpstream({
  name: 'mariadb-10.11',
  remote: '/srv/git/server',
  flavor: 'mariadb',
  series: '10.11',
  build_profile: 'mariadb-rel',
  server_profile: 'small-server',
});
const mysql = parseUpstream({
  name: 'mysql-8.0',
  remote: '/srv/git/mysql',
  flavor: 'mysql',
  series: '8.0',
  base: '8.0.36',
  build_profile: 'mysql-rel',
  server_profile: 'relaxed',
});

/**
 * The instructions lane's count of point-query per release (10.11.2 the series' base: its oldest); 10.11.10 was not
 * counted.
 */
const LANE: Record<string, number> = { '10.11.2': 40_000, '10.11.3': 40_400, '10.11.4': 41_000 };

/** point-query has its own threshold (test_thresholds); every other test takes threshold. */
const thresholds = { threshold: 0.95, testThresholds: { 'point-query': 0.9 } };

const status: DaemonStatus = {
  phase: 'idle',
  queue: { done: 4 },
  lastPollSeconds: 1_750_000_000,
  pollIntervalSeconds: 3600,
  quietHostWaitSeconds: 0,
};

function side(upstream: Upstream, tag: string, version: string): TargetRef {
  return {
    name: tag,
    flavor: upstream.flavor,
    version,
    binary: `/b/${tag}/bin/mysqld`,
    serverProfile: upstream.serverProfile,
    description: { kind: 'release', upstream: upstream.name, tag, commit: 'a'.repeat(40), buildKey: `k-${tag}` },
  };
}

/** One sample per (side, round, test); figures are given per side so each expected median can be worked out by hand. */
interface SideSamples {
  tag: string;
  version: string;
  /** test -> QPS of round 1, round 2, ... */
  qps: Record<string, number[]>;
  cpuPerOp: number;
  p95Ms: number[];
  /** The instructions lane's count of point-query on this side, twice alike; absent: the lane did not count. */
  instructionsPerQuery?: number;
}

async function session(
  store: Store,
  hostId: number,
  upstream: Upstream,
  baseline: SideSamples,
  candidate: SideSamples,
  end: 'done' | 'interrupted' = 'done',
  memory?: 'cached' | 'io-bound',
): Promise<number> {
  const id = await store.createSession({
    kind: 'compare',
    hostId,
    baseline: side(upstream, baseline.tag, baseline.version),
    candidate: side(upstream, candidate.tag, candidate.version),
    suite: 'small-server',
    rounds: 2,
    pid: process.pid,
    settings: memory === undefined ? {} : { memory },
  });
  for (const [role, s] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    for (const [test, rounds] of Object.entries(s.qps)) {
      for (const [i, qps] of rounds.entries()) {
        const input: SampleInput = sampleInput({
          round: i + 1,
          role,
          targetName: s.tag,
          test,
          threads: 1,
          qps,
          cpuPerOp: s.cpuPerOp,
          readKBPerOp: 0.5,
          writeKBPerOp: 2,
          csPerOp: 3,
          readsPerOp: 0.25,
          latencyP95Ms: s.p95Ms[i]!,
        });
        await store.addSample(id, input);
      }
    }
  }
  for (const [role, s] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    if (s.instructionsPerQuery === undefined) continue;
    for (const repeat of [1, 2])
      await store.addInstructionRun(id, {
        role,
        target: s.tag,
        buildKey: `k-${s.tag}`,
        test: 'point-query',
        threads: 1,
        repeat,
        instructions: s.instructionsPerQuery * 2000,
        queries: 2000,
        conditions: { counter: 'callgrind' },
        conditionKey: 'same-conditions',
        seconds: 20,
      });
  }
  if (end === 'done') await store.finishSession(id);
  else await store.interruptSession(id, 'SIGTERM');
  return id;
}

/** Parses an exposition into "name{labels}" -> value, for the samples of qpswatch's own families. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('qpswatch_')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const labels = (u: Upstream, version: string, test: string, memory?: string): string => {
  const pairs = [
    `host="${FINGERPRINT_ID}"`,
    `flavor="${u.flavor}"`,
    `series="${u.name}"`,
    `version="${version}"`,
    `version_key="${key(version)}"`,
    `test="${test}"`,
    'threads="1"',
    `profile="${u.serverProfile}"`,
    ...(memory === undefined ? [] : [`memory="${memory}"`]),
  ];
  return `{${pairs.join(',')}}`;
};

async function scrape(server: MetricsServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`);
  assert.equal(res.status, 200);
  return res.text();
}

describe('metrics served from a real SQLite store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-metrics-'));
  let store: Store;

  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    const hostId = await store.upsertHost({
      fingerprintId: FINGERPRINT_ID,
      fingerprint: { cpuModel: 'Test CPU', sockets: 1, cores: 4, threads: 4, smt: 'off' },
    });
    const { added } = await store.recordReleases([
      ...['10.11.2', '10.11.3', '10.11.4', '10.11.10'].map((v) => ({
        upstream: mariadb.name,
        flavor: 'mariadb',
        tag: `mariadb-${v}`,
        commit: 'a'.repeat(40),
        version: v,
        versionKey: key(v),
      })),
      ...['8.0.35', '8.0.36', '8.0.37'].map((v) => ({
        upstream: mysql.name,
        flavor: 'mysql',
        tag: `mysql-${v}`,
        commit: 'b'.repeat(40),
        version: v,
        versionKey: key(v),
      })),
    ]);
    const id = (tag: string): number => added.find((r) => r.tag === tag)!.id;
    const lane = (v: string) => ({ instructionsPerQuery: LANE[v]! });
    const m = (v: string, qps: Record<string, number[]>, cpuPerOp = 0.02, p95Ms = [5, 7]): SideSamples => ({
      tag: `mariadb-${v}`,
      version: v,
      qps,
      cpuPerOp,
      p95Ms,
    });
    const s1 = await session(
      store,
      hostId,
      mariadb,
      {
        ...m('10.11.2', { 'update-index': [1000, 1100], 'point-query': [5000, 5000], idle: [0, 0] }, 0.01, [10, 12]),
        instructionsPerQuery: 40_000,
      },
      {
        ...m('10.11.3', { 'update-index': [900, 1000], 'point-query': [5000, 5000], idle: [0, 0] }),
        ...lane('10.11.3'),
      },
    );
    const s2 = await session(
      store,
      hostId,
      mariadb,
      { ...m('10.11.3', { 'update-index': [950, 1200], 'point-query': [5000, 5000] }), ...lane('10.11.3') },
      { ...m('10.11.4', { 'update-index': [800, 800], 'point-query': [5000, 5000] }), ...lane('10.11.4') },
    );
    await session(
      store,
      hostId,
      mariadb,
      m('10.11.4', { 'update-index': [820, 780], 'point-query': [5000, 5000] }),
      m('10.11.10', { 'update-index': [1050, 1050], 'point-query': [5000, 5000] }),
    );
    // Interrupted: its absurd figures must count nowhere.
    await session(
      store,
      hostId,
      mariadb,
      m('10.11.10', { 'update-index': [1, 1] }),
      m('10.11.2', { 'update-index': [1, 1] }),
      'interrupted',
    );
    const my = (v: string, qps: number): SideSamples => ({
      tag: `mysql-${v}`,
      version: v,
      qps: { 'read-only': [qps, qps] },
      cpuPerOp: 0.02,
      p95Ms: [5, 7],
    });
    await session(store, hostId, mysql, my('8.0.35', 2200), my('8.0.36', 2000));
    await session(store, hostId, mysql, my('8.0.36', 2000), my('8.0.37', 1900));
    // Under a memory setting: series of their own, with a memory label, never merged with the ones above.
    await session(store, hostId, mysql, my('8.0.35', 500), my('8.0.36', 450), 'done', 'io-bound');

    const verdict = (
      test: string,
      kind: 'ok' | 'regression' | 'slower',
      relativeQps: number,
      detectableDrop = 0.04,
    ) => ({
      test,
      threads: 1,
      kind,
      relativeQps,
      threshold: 0.95,
      pSlower: 0.5,
      pFaster: 0.5,
      baselineSpread: 0.01,
      low: relativeQps - 0.02,
      high: relativeQps + 0.02,
      confidence: 0.95,
      detectableDrop,
      pairs: 12,
      noise: 0.03,
      hint: [],
    });
    const check = { openEvents: [], fixedEventIds: [], messages: [] };
    await store.recordCheck({
      ...check,
      sessionId: s1,
      releaseId: id('mariadb-10.11.3'),
      baselineReleaseId: id('mariadb-10.11.2'),
      outcome: 'ok',
      verdicts: [verdict('update-index', 'ok', 0.96), verdict('point-query', 'slower', 0.97)],
    });
    await store.recordCheck({
      ...check,
      sessionId: s2,
      releaseId: id('mariadb-10.11.4'),
      baselineReleaseId: id('mariadb-10.11.3'),
      outcome: 'regression',
      verdicts: [verdict('update-index', 'regression', 0.82, 0.07), verdict('point-query', 'ok', 1)],
      openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.82 }],
      instructions: {
        verdicts: [
          judgeInstructionTest(
            { test: 'point-query', threads: 1 },
            [LANE['10.11.3']!, LANE['10.11.3']!],
            [LANE['10.11.4']!, LANE['10.11.4']!],
            1.02,
          ),
        ],
        openEvents: [],
        fixedEventIds: [],
      },
    });
    const build = {
      buildKey: 'k1',
      profile: 'mariadb-rel',
      compiler: 'cc 12',
      installDir: '/b/1',
      logFile: '/b/1.log',
      pid: 1,
    };
    await store.finishBuild((await store.startBuild({ ...build, releaseId: id('mariadb-10.11.2') })).id);
    await store.failBuild((await store.startBuild({ ...build, buildKey: 'k2', releaseId: id('mariadb-10.11.3') })).id, [
      'error: boom',
    ]);
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const serve = (versionsPerSeries = 20): Promise<MetricsServer> =>
    startMetricsServer({
      port: 0,
      log,
      source: storeMetricsSource(store, [mariadb, mysql], {
        versionsPerSeries,
        thresholds,
        build: { version: '1.2.3' },
        status: () => status,
      }),
    });

  async function withServer<T>(body: (server: MetricsServer) => Promise<T>, versionsPerSeries?: number): Promise<T> {
    const server = await serve(versionsPerSeries);
    try {
      return await body(server);
    } finally {
      await server.close();
    }
  }

  test('medians over every done session of a version, relative to the base: the base itself is 1, 0/0 is 1', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const qps = (v: string, t: string): number | undefined => got.get(`qpswatch_qps${labels(mariadb, v, t)}`);
      const rel = (v: string, t: string): number | undefined =>
        got.get(`qpswatch_relative_qps_ratio${labels(mariadb, v, t)}`);
      // 10.11.3 ran in two sessions: 900, 1000, 950, 1200 -> 975. The interrupted session's 1s count nowhere.
      assert.deepEqual(
        ['10.11.2', '10.11.3', '10.11.4', '10.11.10'].map((v) => qps(v, 'update-index')),
        [1050, 975, 800, 1050],
      );
      assert.equal(rel('10.11.2', 'update-index'), 1);
      assert.equal(rel('10.11.3', 'update-index'), 975 / 1050);
      assert.equal(rel('10.11.10', 'update-index'), 1);
      assert.equal(rel('10.11.3', 'idle'), 1);
      assert.equal(qps('10.11.3', 'idle'), 0);
      // mysql-8.0 names its base: 8.0.36 is 1 and the older 8.0.35 is above it.
      assert.equal(got.get(`qpswatch_relative_qps_ratio${labels(mysql, '8.0.36', 'read-only')}`), 1);
      assert.equal(got.get(`qpswatch_relative_qps_ratio${labels(mysql, '8.0.35', 'read-only')}`), 1.1);
      assert.equal(got.get(`qpswatch_relative_qps_ratio${labels(mysql, '8.0.37', 'read-only')}`), 0.95);
    }));

  test('per-op figures in base units: CPU seconds from cpu/o and the fingerprint CPUs, bytes, seconds', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const at = (family: string, v: string): number | undefined =>
        got.get(`${family}${labels(mariadb, v, 'update-index')}`);
      // cpu/o 0.01 (percent of all CPUs per op) on 4 CPUs: 0.01 / 100 * 4 s.
      assert.equal(at('qpswatch_cpu_seconds_per_op', '10.11.2'), (0.01 / 100) * 4);
      assert.equal(at('qpswatch_cpu_seconds_per_op', '10.11.3'), (0.02 / 100) * 4);
      assert.equal(at('qpswatch_read_bytes_per_op', '10.11.3'), 512);
      assert.equal(at('qpswatch_written_bytes_per_op', '10.11.3'), 2048);
      assert.equal(at('qpswatch_read_ops_per_op', '10.11.3'), 0.25);
      assert.equal(at('qpswatch_context_switches_per_op', '10.11.3'), 3);
      assert.equal(at('qpswatch_latency_p95_seconds', '10.11.2'), 0.011);
      assert.equal(at('qpswatch_latency_p95_seconds', '10.11.3'), 0.006);
    }));

  test("relative to last good comes from each release's newest valid check; never-checked versions have none", () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const at = (v: string, t = 'update-index'): number | undefined =>
        got.get(`qpswatch_relative_to_last_good_ratio${labels(mariadb, v, t)}`);
      assert.deepEqual(
        [at('10.11.2'), at('10.11.3'), at('10.11.4'), at('10.11.10'), at('10.11.4', 'point-query')],
        [undefined, 0.96, 0.82, undefined, 1],
      );
    }));

  test("the detectable drop comes from the same check's verdicts; never-checked versions have none", () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const at = (v: string, t = 'update-index'): number | undefined =>
        got.get(`qpswatch_detectable_drop_ratio${labels(mariadb, v, t)}`);
      assert.deepEqual(
        [at('10.11.2'), at('10.11.3'), at('10.11.4'), at('10.11.10'), at('10.11.4', 'point-query')],
        [undefined, 0.04, 0.07, undefined, 0.04],
      );
    }));

  test("the verdict of each release's newest valid check is a sample labelled with its kind, slower included", () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const kinds = (v: string, t: string): string[] =>
        ['ok', 'regression', 'improvement', 'slower', 'unstable'].filter(
          (k) => got.get(`qpswatch_verdict_info${labels(mariadb, v, t).slice(0, -1)},kind="${k}"}`) === 1,
        );
      assert.deepEqual(
        [
          kinds('10.11.3', 'update-index'),
          kinds('10.11.3', 'point-query'),
          kinds('10.11.4', 'update-index'),
          kinds('10.11.10', 'update-index'),
        ],
        [['ok'], ['slower'], ['regression'], []],
      );
    }));

  test('the instructions lane: per release its count, against the base directly and against the last good', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const lane = (family: string, v: string) =>
        got.get(`qpswatch_instructions_${family}${labels(mariadb, v, 'point-query')}`);
      assert.deepEqual(
        ['10.11.2', '10.11.3', '10.11.4', '10.11.10'].map((v) => lane('per_query', v)),
        [40_000, 40_400, 41_000, undefined],
      );
      assert.deepEqual(
        ['10.11.2', '10.11.3', '10.11.4', '10.11.10'].map((v) => lane('relative_to_base_ratio', v)),
        [1, 40_400 / 40_000, 41_000 / 40_000, undefined],
      );
      // Only 10.11.4's check recorded the lane's verdicts.
      assert.deepEqual(
        ['10.11.2', '10.11.3', '10.11.4'].map((v) => lane('relative_to_last_good_ratio', v)),
        [undefined, undefined, 41_000 / 40_400],
      );
      assert.equal(got.get(`qpswatch_instructions_per_query${labels(mariadb, '10.11.4', 'update-index')}`), undefined);
    }));

  test('the threshold of each series and test is the configured one: its test_thresholds entry, else threshold', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const thresholdSamples = [...got]
        .filter(([k]) => k.startsWith('qpswatch_regression_threshold_ratio{'))
        .sort(([a], [b]) => a.localeCompare(b));
      assert.deepEqual(thresholdSamples, [
        ['qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="idle"}', 0.95],
        ['qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="point-query"}', 0.9],
        ['qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="update-index"}', 0.95],
        ['qpswatch_regression_threshold_ratio{series="mysql-8.0",test="read-only"}', 0.95],
      ]);
      assert.equal(got.get(`qpswatch_build_info{version="1.2.3",node_version="${process.version}"}`), 1);
    }));

  test("the daemon's health: store totals and the status passed in", () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      assert.equal(got.get('qpswatch_releases_discovered_total'), 7);
      assert.equal(got.get('qpswatch_builds_total{result="built"}'), 1);
      assert.equal(got.get('qpswatch_builds_total{result="failed"}'), 1);
      assert.equal(got.get('qpswatch_build_failures_total'), 1);
      assert.equal(got.get('qpswatch_active_regressions{series="mariadb-10.11"}'), 1);
      assert.equal(got.get('qpswatch_active_regressions{series="mysql-8.0"}'), 0);
      assert.equal(got.get('qpswatch_phase{phase="idle"}'), 1);
      assert.equal(got.get('qpswatch_queue_releases{state="done"}'), 4);
      assert.equal(got.get('qpswatch_last_poll_timestamp_seconds'), 1_750_000_000);
      assert.equal(got.get('qpswatch_poll_interval_seconds'), 3600);
      assert.ok((got.get('qpswatch_last_session_duration_seconds') ?? -1) >= 0);
      assert.ok((got.get('qpswatch_last_build_duration_seconds') ?? -1) >= 0);
    }));

  test('only the newest versions of each series by version order are kept; a pruned base still anchors the ratio', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      const versions = (u: Upstream, test: string): string[] =>
        [...got.keys()]
          .filter(
            (k) =>
              k.startsWith('qpswatch_qps{') &&
              k.includes(`series="${u.name}"`) &&
              k.includes(`test="${test}"`) &&
              !k.includes('memory='),
          )
          .map((k) => /version="([^"]+)"/.exec(k)![1]!);
      // As text, 10.11.10 sorts before 10.11.2; by version_key it is the newest.
      assert.deepEqual(versions(mariadb, 'update-index').sort(), ['10.11.10', '10.11.4']);
      assert.deepEqual(versions(mysql, 'read-only').sort(), ['8.0.36', '8.0.37']);
      assert.equal(got.get(`qpswatch_relative_qps_ratio${labels(mariadb, '10.11.4', 'update-index')}`), 800 / 1050);
    }, 2));

  test('a restarted server (new registry, new source, same store) serves the same qpswatch series', async () => {
    const first = await withServer(scrape);
    const second = await withServer(scrape);
    const own = (text: string): string[] =>
      text.split('\n').filter((l) => l.startsWith('qpswatch_') || l.startsWith('# TYPE qpswatch_'));
    assert.ok(own(first).length > 100);
    assert.deepEqual(own(second), own(first));
  });

  /** qpswatch_qps as seriesReleaseSamples (history's read) says it should be: the samples history is made of. */
  async function expectedQps(u: Upstream): Promise<Map<string, number>> {
    const releases = new Map((await store.listReleases(u.name)).map((r) => [r.id, r.version]));
    const byKey = new Map<string, number[]>();
    for (const s of await seriesReleaseSamples(store, u.name)) {
      const k = `qpswatch_qps${labels(u, releases.get(s.releaseId)!, s.test, s.memory)}`;
      byKey.set(k, [...(byKey.get(k) ?? []), s.qps]);
    }
    return new Map([...byKey].map(([k, v]) => [k, median(v)]));
  }

  const servedQps = (got: Map<string, number>, u: Upstream): Map<string, number> =>
    new Map([...got].filter(([k]) => k.startsWith('qpswatch_qps{') && k.includes(`series="${u.name}"`)));

  test('the samples that count are exactly those history reads', () =>
    withServer(async (server) => {
      const got = samples(await scrape(server));
      for (const u of [mariadb, mysql]) assert.deepEqual(servedQps(got, u), await expectedQps(u));
      // The io-bound session's series: its own medians, relative to the base (8.0.36) under the same setting.
      assert.equal(got.get(`qpswatch_qps${labels(mysql, '8.0.36', 'read-only', 'io-bound')}`), 450);
      assert.equal(
        got.get(`qpswatch_relative_qps_ratio${labels(mysql, '8.0.35', 'read-only', 'io-bound')}`),
        500 / 450,
      );
      assert.equal(got.get(`qpswatch_qps${labels(mysql, '8.0.36', 'read-only')}`), 2000);
    }));

  test('promtool check metrics finds nothing to say about the qpswatch families', async (t) => {
    const text = await withServer(scrape);
    let result;
    try {
      result = await run({
        argv: ['promtool', 'check', 'metrics'],
        input: text,
        allowFailure: true,
        timeoutMs: 30_000,
      });
    } catch (err) {
      if (err instanceof ExecNotFoundError)
        return t.skip('promtool is not on the PATH (Debian: apt-get install prometheus)');
      throw err;
    }
    const remarks = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
    // prom-client's own nodejs_* gauges end in _total; that is prom-client's remark, not ours.
    assert.deepEqual(
      remarks.filter((l) => l.includes('qpswatch')),
      [],
    );
    assert.ok(
      remarks.every((l) => l.startsWith('nodejs_')),
      remarks.join('\n'),
    );
  });

  // Last: it changes the store.
  test(
    "a check marked invalid stops counting: its session's samples and its " + 'relative to last good are gone',
    async () => {
      const v4 = (await store.findReleasesByTag('mariadb-10.11.4'))[0]!;
      await withServer(async (server) => {
        // The running server has read every session once already; the triage must still show at the next scrape.
        assert.equal(
          samples(await scrape(server)).get(`qpswatch_qps${labels(mariadb, '10.11.3', 'update-index')}`),
          975,
        );
        await store.triage({ releaseId: v4.id, action: 'invalid', who: 'test', reason: 'noisy neighbour' });
        const got = samples(await scrape(server));
        assert.deepEqual(servedQps(got, mariadb), await expectedQps(mariadb));
        // 10.11.3 keeps only its first session: 900, 1000.
        assert.equal(got.get(`qpswatch_qps${labels(mariadb, '10.11.3', 'update-index')}`), 950);
        assert.equal(
          got.get(`qpswatch_relative_to_last_good_ratio${labels(mariadb, '10.11.4', 'update-index')}`),
          undefined,
        );
        assert.equal(got.get(`qpswatch_detectable_drop_ratio${labels(mariadb, '10.11.4', 'update-index')}`), undefined);
        assert.equal(
          got.get(`qpswatch_relative_to_last_good_ratio${labels(mariadb, '10.11.3', 'update-index')}`),
          0.96,
        );
        assert.equal(got.get('qpswatch_active_regressions{series="mariadb-10.11"}'), 0);
      });
    },
  );
});
