import { join } from 'node:path';
import { compareSession, type VerdictSettings } from '../../../src/analysis/index.js';
import type { CheckDeps } from '../../../src/checks/index.js';
import type { CycleSettings } from '../../../src/daemon/index.js';
import { judgeStored, type CompareOutcome, type CompareRequest } from '../../../src/session/index.js';
import type { ReleaseRecord, Store } from '../../../src/store/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { parseVersion, versionKey } from '../../../src/version/index.js';
import { hostInput, sampleInput, sessionInput, targetRef } from '../store/store-inputs.js';

/** A check or a cycle on a real store, with the session (and the build) given as fakes through their deps. */

export const VERDICTS: VerdictSettings = { threshold: 0.95, testThresholds: {}, alpha: 0.05 };

/** A git upstream whose remote does not exist: a cycle's discovery of it fails, and its queued rows go on. */
export const upstream = parseUpstream({
  name: 'demo',
  remote: '/nonexistent/qpswatch-demo.git',
  flavor: 'mariadb',
  series: '10.11',
  build_profile: 'demo',
  server_profile: 'relaxed',
});

export async function recordDemoReleases(store: Store, versions: readonly string[]): Promise<ReleaseRecord[]> {
  const { added } = await store.recordReleases(
    versions.map((version) => ({
      upstream: 'demo',
      flavor: 'mariadb',
      tag: `mariadb-${version}`,
      commit: version.replaceAll('.', '').padEnd(40, '0'),
      version,
      versionKey: versionKey(parseVersion(version)),
    })),
  );
  return added;
}

/** Records a finished build of the release, as buildRelease would after cmake. */
export async function recordBuild(store: Store, release: ReleaseRecord, dir: string): Promise<string> {
  const build = await store.startBuild({
    releaseId: release.id,
    buildKey: `k-${release.version}`,
    profile: 'demo',
    compiler: 'gcc',
    installDir: join(dir, release.tag),
    logFile: join(dir, `${release.tag}.log`),
    pid: 1,
  });
  await store.finishBuild(build.id);
  return build.buildKey;
}

/** Five rounds of two tests, stored as a done session; the candidate 20% slower on update-index. */
async function storedSession(store: Store, request: CompareRequest): Promise<number> {
  const hostId = await store.upsertHost(hostInput());
  const version = (tag: string): string => tag.replace('mariadb-', '');
  const id = await store.createSession(
    sessionInput(hostId, {
      baseline: targetRef(request.baseline, version(request.baseline)),
      candidate: targetRef(request.candidate, version(request.candidate)),
      rounds: 5,
      settings: { design: 'runs', verdicts: VERDICTS },
    }),
  );
  for (let round = 1; round <= 5; round++)
    for (const [test, slower] of [
      ['update-index', 0.8],
      ['point-query', 1],
    ] as const) {
      const qps = 1000 * (1 + round / 1000);
      await store.addSample(id, sampleInput({ round, role: 'baseline', targetName: request.baseline, test, qps }));
      await store.addSample(
        id,
        sampleInput({ round, role: 'candidate', targetName: request.candidate, test, qps: qps * slower }),
      );
    }
  await store.finishSession(id);
  return id;
}

/** A session runner in place of runComparison: stores its samples and judges them as runComparison does. */
export function fakeCompare(store: Store, asked: CompareRequest[]): NonNullable<CheckDeps['compare']> {
  return async (request) => {
    asked.push(request);
    const sessionId = await storedSession(store, request);
    const plan = {
      design: 'runs' as const,
      budgetMinutes: 0,
      maxPairs: 0,
      plannedSweeps: 0,
      idleServer: 'drain' as const,
      idleStatesHeld: false,
      idleHoldReason: 'a fake session',
      verdicts: VERDICTS,
    };
    const samples = await store.completedSamples(sessionId);
    const verdicts = judgeStored(plan, samples);
    const view = compareSession((await store.getSession(sessionId))!, samples, { cpu: 'fake' }, verdicts);
    return { sessionId, view, verdicts, fingerprintId: hostInput().fingerprintId, plan } satisfies CompareOutcome;
  };
}

/**
 * What a check and a cycle read of the settings; what runComparison and buildRelease would read is left out, since
 * the fakes stand in for them. Mail without an SMTP host keeps each sent message as a file in outboxDir.
 */
export function fakeSettings(dir: string): CycleSettings {
  const settings = {
    reanchorEvery: 0,
    alerts: { emailTo: ['dba@example.com'], emailFrom: 'qpswatch@example.com', grafanaUrl: '' },
    mail: {
      smtpHost: '',
      smtpPort: 25,
      smtpSecure: false,
      smtpUser: '',
      smtpPassword: '',
      smtpAllowPlaintextAuth: false,
      outboxDir: join(dir, 'outbox'),
      timeoutMs: 30_000,
    },
    keepBuilds: 10,
    quietHost: {
      limits: { maxBusyPercent: 10, minAvailableBytes: 1e9, maxSwapPagesPerSecond: 10, governors: [] },
      windowSeconds: 5,
      maxWaitSeconds: 20,
    },
    retry: { attempts: 3, backoffMinutes: 5 },
    // The profile of an opened regression has tests of its own (event-profile.test.ts), with a fake profiler.
    profiling: 'off',
    profileSeconds: 10,
    // Bisecting a new regression has tests of its own (event-bisect.test.ts), with a fake runner.
    bisect: { enabled: false, maxBuilds: 12, maxHours: 12 },
  };
  return settings as unknown as CycleSettings;
}
