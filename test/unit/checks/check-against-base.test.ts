import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BaseNotBuiltError,
  checkRelease,
  NoSeriesBaseError,
  NotAfterBaseError,
  type CheckDeps,
} from '../../../src/checks/index.js';
import type { BuildRecord, CheckRecord, ReleaseRecord, TriageRecord } from '../../../src/store/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { parseVersion, versionKey } from '../../../src/version/index.js';
import { silentLog } from '../../helpers/silent-log.js';

/**
 * `check --against-base` refuses, before any server starts and with one line naming the upstream and the fix, when
 * the series has no base, the base is not built, or the release is not newer than the base. A fake store holds the
 * releases, builds and checks; a refusal never reaches the session, which the fake could not run.
 */
const release = (id: number, version: string): ReleaseRecord => ({
  id,
  upstream: 'demo',
  flavor: 'mariadb',
  tag: `mariadb-${version}`,
  commit: String(id).repeat(40),
  version,
  versionKey: versionKey(parseVersion(version)),
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  movedFrom: null,
  movedAt: null,
});
const releases = [release(1, '10.11.1'), release(2, '10.11.2'), release(3, '10.11.3')];
const build = (releaseId: number): BuildRecord => ({
  id: releaseId,
  releaseId,
  buildKey: `k${releaseId}`,
  profile: 'demo',
  compiler: 'gcc',
  installDir: '/nonexistent',
  logFile: '/nonexistent.log',
  pid: 1,
  state: 'built',
  failureLines: [],
  startedAt: '',
  endedAt: '',
  durationSeconds: 1,
});

function deps(options: { base?: string; built: number[]; checks?: CheckRecord[] }): CheckDeps {
  const upstream = parseUpstream({
    name: 'demo',
    remote: '/nonexistent',
    flavor: 'mariadb',
    series: '10.11',
    build_profile: 'demo',
    server_profile: 'relaxed',
    ...(options.base !== undefined ? { base: options.base } : {}),
  });
  const store = {
    listReleases: async () => releases,
    buildsOfRelease: async (id: number) => (options.built.includes(id) ? [build(id)] : []),
    listChecks: async () => options.checks ?? [],
    listTriage: async (): Promise<TriageRecord[]> => [],
  };
  return {
    store: store as unknown as CheckDeps['store'],
    settings: { reanchorEvery: 0 } as CheckDeps['settings'],
    log: silentLog,
    upstreams: [upstream],
    signal: new AbortController().signal,
  };
}
const request = (r: ReleaseRecord) => ({ release: r, suite: {} as never, rounds: 1, againstBase: true });

describe('check --against-base refuses in one line', () => {
  test('a series with no base yet names the upstream and both fixes', async () => {
    await assert.rejects(checkRelease(request(releases[2]!), deps({ built: [1, 2, 3] })), (err: Error) => {
      assert.ok(err instanceof NoSeriesBaseError);
      assert.equal(
        err.message,
        'upstream "demo" has no base release yet: check its first release ' +
          '(`qpswatch check TAG`), or set base: in its config (e.g. base: ' +
          '"10.11.1")',
      );
      return true;
    });
  });

  test("a base: that is not among the upstream's releases", async () => {
    await assert.rejects(
      checkRelease(request(releases[2]!), deps({ base: '10.11.0', built: [1, 2, 3] })),
      (err: Error) =>
        err instanceof NoSeriesBaseError && /names base 10\.11\.0, which is not among its releases/.test(err.message),
    );
  });

  test('a base that is not built says which command builds it', async () => {
    await assert.rejects(checkRelease(request(releases[2]!), deps({ base: '10.11.1', built: [3] })), (err: Error) => {
      assert.ok(err instanceof BaseNotBuiltError);
      assert.equal(
        err.message,
        'the base release "mariadb-10.11.1" of upstream "demo" is not built: ' +
          'run `qpswatch build mariadb-10.11.1` first',
      );
      return true;
    });
  });

  test('the base itself, or an older release, cannot be checked against the base', async () => {
    const checks: CheckRecord[] = [
      {
        sessionId: 1,
        releaseId: 2,
        baselineReleaseId: 1,
        outcome: 'ok',
        conclusive: true,
        invalid: false,
        judgedAt: '',
      },
    ];
    await assert.rejects(
      checkRelease(request(releases[0]!), deps({ built: [1, 2, 3], checks })),
      (err: Error) =>
        err instanceof NotAfterBaseError &&
        err.message.includes('"mariadb-10.11.1" is not newer than "mariadb-10.11.1", the base of upstream "demo"'),
    );
  });
});
