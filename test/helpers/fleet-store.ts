import { openStore, type Store, type TargetRef } from '../../src/store/index.js';
import { sampleInput } from '../unit/store/store-inputs.js';

/**
 * A store with the results of two hosts for one series, as a fleet sharing one store would hold them: each host
 * measured 10.11.2 against 10.11.3, host A also 10.11.3 against 10.11.4 (B never ran 10.11.4), and host A's first
 * session is a check with a standard error, so it chains to the base. QPS differ by host on purpose (B is twice as
 * fast), so a ratio that mixed hosts would show.
 */
export const FLEET_SERIES = 'mariadb-10.11';
export const HOST_A = 'fleet-a-2s24c';
export const HOST_B = 'fleet-b-1s32c';
/** Host A's CPU model holds markup, quotes and an ampersand: it must come out escaped in HTML. */
export const HOST_A_CPU = 'Xeon <b>Gold</b> "6248" & co';

export const FLEET_CONFIG_UPSTREAM = [
  'upstreams:',
  `  - name: ${FLEET_SERIES}`,
  '    remote: /srv/git/server',
  '    flavor: mariadb',
  "    series: '10.11'",
  '    build_profile: mariadb-rel',
  '    server_profile: small-server',
];

const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');

function side(version: string): TargetRef {
  const tag = `mariadb-${version}`;
  return {
    name: tag,
    flavor: 'mariadb',
    version,
    binary: `/b/${tag}/bin/mariadbd`,
    serverProfile: 'small-server',
    description: { kind: 'release', upstream: FLEET_SERIES, tag, commit: 'a'.repeat(40), buildKey: `k-${tag}` },
  };
}

/** One done session: per test, two rounds at each side's QPS; `runner` names the daemon (host_name) that ran it. */
async function session(
  store: Store,
  hostId: number,
  [bv, cv]: [string, string],
  qps: Record<string, [number, number]>,
  runner?: string,
): Promise<number> {
  const id = await store.createSession({
    kind: 'compare',
    hostId,
    baseline: side(bv),
    candidate: side(cv),
    suite: 'small-server',
    rounds: 2,
    pid: process.pid,
    settings: runner !== undefined ? { runner } : {},
  });
  for (const round of [1, 2])
    for (const [test, [b, c]] of Object.entries(qps))
      for (const [role, version, value] of [
        ['baseline', bv, b],
        ['candidate', cv, c],
      ] as const)
        await store.addSample(
          id,
          sampleInput({ round, role, targetName: `mariadb-${version}`, test, threads: 1, qps: value }),
        );
  await store.finishSession(id);
  return id;
}

/** Host A's machine after a kernel upgrade: a new fingerprint, the same runner (writeFleetStore's `upgradeA`). */
export const HOST_A_UPGRADED = 'fleet-a-2s24c-k21';
const HOST_A_FACTS = { cpuModel: HOST_A_CPU, sockets: 2, cores: 24, threads: 48, memoryBytes: 128 * 2 ** 30 };

/**
 * Fills a new SQLite store at `path` and closes it. With `upgradeA`, host A's sessions name their runner (db-a), and
 * the same machine ran one more session after a kernel upgrade, under a new fingerprint (HOST_A_UPGRADED).
 */
export async function writeFleetStore(path: string, { upgradeA = false } = {}): Promise<void> {
  const store = await openStore({ backend: 'sqlite', path });
  try {
    const { added } = await store.recordReleases(
      ['10.11.2', '10.11.3', '10.11.4'].map((v) => ({
        upstream: FLEET_SERIES,
        flavor: 'mariadb',
        tag: `mariadb-${v}`,
        commit: 'a'.repeat(40),
        version: v,
        versionKey: key(v),
      })),
    );
    const release = (v: string): number => added.find((r) => r.version === v)!.id;
    const a = await store.upsertHost({
      fingerprintId: HOST_A,
      fingerprint: { ...HOST_A_FACTS, ...(upgradeA ? { kernel: '6.1.0-18-amd64' } : {}) },
    });
    const runnerA = upgradeA ? 'db-a' : undefined;
    const b = await store.upsertHost({
      fingerprintId: HOST_B,
      fingerprint: { cpuModel: 'AMD EPYC 7B13', sockets: 1, cores: 32, threads: 32, memoryBytes: 64 * 2 ** 30 },
    });
    const checked = await session(
      store,
      a,
      ['10.11.2', '10.11.3'],
      { 'update-index': [1000, 900], 'point-query': [5000, 5000] },
      runnerA,
    );
    await session(
      store,
      a,
      ['10.11.3', '10.11.4'],
      { 'update-index': [900, 810], 'point-query': [5000, 5500] },
      runnerA,
    );
    await session(store, b, ['10.11.2', '10.11.3'], { 'update-index': [2000, 1900], 'point-query': [8000, 8800] });
    if (upgradeA) {
      const upgraded = await store.upsertHost({
        fingerprintId: HOST_A_UPGRADED,
        fingerprint: { ...HOST_A_FACTS, kernel: '6.1.0-21-amd64' },
      });
      await session(store, upgraded, ['10.11.2', '10.11.4'], { 'update-index': [1000, 800] }, 'db-a');
    }
    await store.recordCheck({
      sessionId: checked,
      releaseId: release('10.11.3'),
      baselineReleaseId: release('10.11.2'),
      outcome: 'ok',
      verdicts: [
        {
          test: 'update-index',
          threads: 1,
          kind: 'regression',
          relativeQps: 0.9,
          threshold: 0.95,
          pSlower: 0.01,
          pFaster: 0.99,
          baselineSpread: 0.01,
          low: 0.88,
          high: 0.92,
          confidence: 0.95,
          detectableDrop: 0.03,
          pairs: 12,
          noise: 0.02,
          logSe: 0.01,
          hint: [],
        },
      ],
      openEvents: [],
      fixedEventIds: [],
      messages: [],
    });
  } finally {
    await store.close();
  }
}
