// Fills a store with the results of a daemon that has watched two series for a while: realistic labels and volume,
// written through the Store API as the daemon writes them (a session, its samples, its check).
import { mapPerOp } from '../../src/model/index.js';
import { openStore, type SampleInput, type Store, type TargetRef } from '../../src/store/index.js';
import { parseUpstream, type Upstream } from '../../src/upstream/index.js';

export const BENCH_TESTS = [
  'point-query',
  'points-covered-pk',
  'points-covered-si',
  'points-notcovered-pk',
  'points-notcovered-si',
  'random-points',
  'range-covered-pk',
  'range-covered-si',
  'range-notcovered-pk',
  'range-notcovered-si',
  'read-only',
  'read-write',
  'update-index',
  'update-nonindex',
  'delete-insert',
  'insert',
] as const;

const VERSIONS = 20;
const ROUNDS = 5;

/** The upstreams as a config file names them (the fleet bench writes them into the config of `qpswatch metrics`). */
export const BENCH_UPSTREAM_CONFIGS = [
  {
    name: 'mariadb-10.11',
    remote: '/srv/git/server',
    flavor: 'mariadb',
    series: '10.11',
    build_profile: 'mariadb-rel',
    server_profile: 'small-server',
  },
  {
    name: 'mysql-8.0',
    remote: '/srv/git/mysql-server',
    flavor: 'mysql',
    series: '8.0',
    base: '8.0.21',
    build_profile: 'mysql-rel',
    server_profile: 'small-server',
  },
] as const;

export const BENCH_UPSTREAMS: readonly Upstream[] = BENCH_UPSTREAM_CONFIGS.map((u) => parseUpstream(u));

const versionsOf = (u: Upstream): string[] =>
  Array.from({ length: VERSIONS }, (_, i) => (u.flavor === 'mariadb' ? `10.11.${i + 1}` : `8.0.${i + 21}`));
const tagOf = (u: Upstream, v: string): string => `${u.flavor}-${v}`;
const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');

export interface FilledStore {
  store: Store;
  samples: number;
  sessions: number;
  checks: number;
}

/** Deterministic noise, so two runs of the benchmark serve the same figures. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The bench's hosts: the first is the 2-CPU VM of bench:daemon; the fleet bench adds a 2-socket server. */
const BENCH_HOSTS = [
  { fingerprintId: 'bench-2cpu-vm', cpuModel: 'Bench CPU', sockets: 1, cores: 2, threads: 2, memoryBytes: 8 * 2 ** 30 },
  {
    fingerprintId: 'bench-2s48c',
    cpuModel: 'Bench Server CPU',
    sockets: 2,
    cores: 48,
    threads: 96,
    memoryBytes: 256 * 2 ** 30,
  },
] as const;

/**
 * Fills a SQLite store through the Store API with about `targetSamples` samples. With `hosts` 2, whole sweeps of the
 * version pairs take turns between the hosts, each host with its own checks, as a fleet sharing a store holds them.
 */
export async function fillStore(path: string, targetSamples: number, hosts: 1 | 2 = 1): Promise<FilledStore> {
  const store = await openStore({ backend: 'sqlite', path });
  const hostIds: number[] = [];
  for (const { fingerprintId, ...facts } of BENCH_HOSTS.slice(0, hosts))
    hostIds.push(
      await store.upsertHost({
        fingerprintId,
        fingerprint: {
          ...facts,
          smt: 'off',
          numaNodes: facts.sockets,
          kernel: '6.1.0',
          governor: 'none',
          dataDevice: 'vda',
          filesystem: 'ext4',
          compiler: 'cc 12.2.0',
        },
      }),
    );
  const ids = new Map<string, number>();
  for (const u of BENCH_UPSTREAMS) {
    const { added } = await store.recordReleases(
      versionsOf(u).map((v) => ({
        upstream: u.name,
        flavor: u.flavor,
        tag: tagOf(u, v),
        commit: 'c'.repeat(40),
        version: v,
        versionKey: key(v),
      })),
    );
    for (const r of added) ids.set(r.tag, r.id);
  }
  const rand = random(42);
  const perSession = 2 * BENCH_TESTS.length * ROUNDS;
  const sessions = Math.ceil(targetSamples / perSession);
  let checks = 0;
  for (let k = 0; k < sessions; k++) {
    // Checks of consecutive versions, the series taking turns; later rounds of pairs are reruns.
    const u = BENCH_UPSTREAMS[k % 2]!;
    const pair = Math.floor(k / 2) % (VERSIONS - 1);
    const sweep = Math.floor(k / (2 * (VERSIONS - 1)));
    const [bv, cv] = [versionsOf(u)[pair]!, versionsOf(u)[pair + 1]!];
    const id = await writeSession(store, hostIds[sweep % hosts]!, u, bv, cv, rand);
    // Each host's first sweep is its checks; the later ones are reruns.
    if (sweep < hosts) {
      await store.recordCheck({
        sessionId: id,
        releaseId: ids.get(tagOf(u, cv))!,
        baselineReleaseId: ids.get(tagOf(u, bv))!,
        outcome: 'ok',
        verdicts: BENCH_TESTS.map((test) => ({
          test,
          threads: 1,
          kind: 'ok',
          relativeQps: 0.97 + rand() * 0.06,
          threshold: 0.95,
          pSlower: 0.5,
          pFaster: 0.5,
          baselineSpread: 0.01,
          low: 0.96,
          high: 1.04,
          confidence: 0.95,
          detectableDrop: 0.04,
          pairs: 12,
          noise: 0.03,
          hint: [],
        })),
        openEvents: [],
        fixedEventIds: [],
        messages: [],
      });
      checks += 1;
    }
  }
  return { store, samples: sessions * perSession, sessions, checks };
}

async function writeSession(
  store: Store,
  hostId: number,
  u: Upstream,
  bv: string,
  cv: string,
  rand: () => number,
): Promise<number> {
  const ref = (v: string): TargetRef => ({
    name: tagOf(u, v),
    flavor: u.flavor,
    version: v,
    binary: `/var/lib/qpswatch/builds/k-${v}/bin/mysqld`,
    serverProfile: u.serverProfile,
    description: { kind: 'release', upstream: u.name, tag: tagOf(u, v), commit: 'c'.repeat(40), buildKey: `k-${v}` },
  });
  const id = await store.createSession({
    kind: 'compare',
    hostId,
    baseline: ref(bv),
    candidate: ref(cv),
    suite: 'small-server',
    rounds: ROUNDS,
    pid: process.pid,
    settings: { threshold: 0.95, seconds: 300 },
  });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const role of ['baseline', 'candidate'] as const) {
      for (const [t, test] of BENCH_TESTS.entries())
        await store.addSample(
          id,
          sample(round, role, role === 'baseline' ? tagOf(u, bv) : tagOf(u, cv), test, 2000 + t * 500, rand),
        );
    }
  }
  await store.finishSession(id);
  return id;
}

function sample(
  round: number,
  role: 'baseline' | 'candidate',
  targetName: string,
  test: string,
  meanQps: number,
  rand: () => number,
): SampleInput {
  const qps = meanQps * (0.97 + rand() * 0.06);
  const cpuPerOp = 60 / qps;
  return {
    round,
    role,
    targetName,
    test,
    threads: 1,
    seconds: 300,
    qps,
    tps: qps / 20,
    latencyAvgMs: 1000 / qps,
    latencyP95Ms: 1300 / qps,
    latencyMaxMs: 20,
    errors: 0,
    reconnects: 0,
    // Figures this made-up history does not shape get a small value of their own.
    ...mapPerOp(() => rand()),
    cpuPerOp,
    cpuMicrosPerOp: cpuPerOp * 2 * 1e4,
    csPerOp: 2 + rand(),
    readsPerOp: rand() * 0.01,
    readKBPerOp: rand() * 0.16,
    writeKBPerOp: 0.5 + rand(),
    host: { cpuBusyPct: 60, csPerSec: 2.5 * qps, cpus: 2 },
    dbCounters: {
      Innodb_rows_read: { delta: qps * 300 * 14, perOp: 14 },
      Innodb_data_written: { delta: qps * 300 * 800, perOp: 800 },
      Innodb_os_log_written: { delta: qps * 300 * 300, perOp: 300 },
    },
  };
}
