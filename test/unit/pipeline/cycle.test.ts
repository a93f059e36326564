import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCycle, type CycleDeps } from '../../../src/pipeline/index.js';
import type { CompareRequest } from '../../../src/session/index.js';
import type { QuietHostObservation } from '../../../src/sampling/index.js';
import { openStore, type ReleaseRecord, type Store } from '../../../src/store/index.js';
import type { Suite } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { fakeCompare, fakeSettings, recordBuild, recordDemoReleases, upstream } from './fake-session.js';

/**
 * A daemon cycle on a real store, its builds and sessions given as fakes through the deps (`build`, `compare`,
 * `observeHost`): two queued releases are built, the first becomes the series' last good, the second is checked
 * against it, and both rows end done.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-cycle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const QUIET: QuietHostObservation = {
  windowSeconds: 5,
  busyPercent: 1,
  availableBytes: 4e9,
  swapPagesPerSecond: 0,
  governors: ['none'],
  loadAverage1: 0.1,
  cpuidleDriver: 'none',
  cpuidleGovernor: 'menu',
};

let store: Store;
let releases: ReleaseRecord[];

describe('runCycle with a fake build and session', () => {
  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    releases = await recordDemoReleases(store, ['10.11.1', '10.11.2']);
    await store.enqueueReleases(releases.map((r) => r.id));
  });
  after(() => store.close());

  test('builds both queued releases, checks the second against the first, and marks both done', async () => {
    const built: string[] = [];
    const asked: CompareRequest[] = [];
    const phases: string[] = [];
    const deps: CycleDeps = {
      store,
      settings: fakeSettings(dir),
      log: silentLog,
      upstreams: [upstream],
      signal: new AbortController().signal,
      suite: { name: 'quick' } as Suite,
      rounds: 5,
      onPhase: (phase) => void phases.push(phase),
      observeHost: () => Promise.resolve(QUIET),
      build: async (release) => {
        built.push(release.tag);
        const key = await recordBuild(store, release, dir);
        const installDir = join(dir, release.tag);
        return { status: 'built', release, key, installDir, logFile: `${installDir}.log`, failureLines: [] };
      },
      compare: fakeCompare(store, asked),
    };
    const outcome = await runCycle(deps);
    // The remote does not exist: discovery fails and queues nothing new, and the rows already queued go on.
    assert.deepEqual(outcome, { enqueued: 0, built: 2, buildFailures: 0, checked: 1, failed: 0 });
    assert.deepEqual(built, ['mariadb-10.11.1', 'mariadb-10.11.2']);
    assert.deepEqual(
      asked.map((r) => [r.baseline, r.candidate]),
      [['mariadb-10.11.1', 'mariadb-10.11.2']],
    );
    const queue = await store.listQueue();
    assert.deepEqual(
      queue.map((q) => [q.tag, q.state]),
      [
        ['mariadb-10.11.1', 'done'],
        ['mariadb-10.11.2', 'done'],
      ],
    );
    assert.equal((await store.listChecks('demo'))[0]?.outcome, 'regression');
    assert.deepEqual(phases.slice(0, 2), ['discovering', 'building']);
    assert.ok(phases.includes('waiting_for_quiet_host') && phases.includes('benchmarking'), phases.join(' '));
    assert.equal(phases.at(-1), 'idle');
  });
});
