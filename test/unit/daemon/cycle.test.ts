import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCycle, type CycleDeps, type FleetMember } from '../../../src/daemon/index.js';
import type { CompareRequest } from '../../../src/session/index.js';
import type { QuietHostObservation } from '../../../src/sampling/index.js';
import { openStore, QueueStateError, type ReleaseRecord, type Store } from '../../../src/store/index.js';
import type { Suite } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { fakeCompare, fakeSettings, recordBuild, recordDemoReleases, upstream } from '../checks/fake-session.js';

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

/** This daemon in the fleet: host h1, working its own slot. */
const FLEET: FleetMember = {
  hostName: 'h1',
  oncePer: 'host',
  slot: 'h1',
  classId: 'c1',
  hostId: 1,
  claimSeconds: 600,
};

let store: Store;
let releases: ReleaseRecord[];

describe('runCycle with a fake build and session', () => {
  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    releases = await recordDemoReleases(store, ['10.11.1', '10.11.2']);
    await store.enqueueReleases(
      FLEET.slot,
      releases.map((r) => r.id),
    );
  });
  after(() => store.close());

  test('builds both queued releases, checks the second against the first, and marks both done', async () => {
    const built: string[] = [];
    const installed: string[] = [];
    const asked: CompareRequest[] = [];
    const phases: string[] = [];
    const deps: CycleDeps = {
      store,
      fleet: FLEET,
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
      installHere: async (release) => void installed.push(release.tag),
    };
    const outcome = await runCycle(deps);
    // The remote does not exist: discovery fails and queues nothing new, and the rows already queued go on.
    assert.deepEqual(outcome, { enqueued: 0, built: 2, buildFailures: 0, checked: 1, failed: 0 });
    assert.deepEqual(built, ['mariadb-10.11.1', 'mariadb-10.11.2']);
    // Before the session, both sides are made installed on this host (a fleet shares its store, not its disks).
    assert.deepEqual(installed, ['mariadb-10.11.1', 'mariadb-10.11.2']);
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

describe('runCycle in a fleet: a slot shared by two daemons (benchmark_once_per host_class)', () => {
  const classFleet = (hostName: string): FleetMember => ({
    ...FLEET,
    hostName,
    oncePer: 'host_class',
    slot: 'class:c1',
  });
  let shared: Store;
  let queued: ReleaseRecord[];
  const dirB = mkdtempSync(join(tmpdir(), 'qpswatch-cycle-class-'));
  before(async () => {
    shared = await openStore({ backend: 'sqlite', path: join(dirB, 'qpswatch.sqlite') });
    queued = await recordDemoReleases(shared, ['10.11.1', '10.11.2', '10.11.3']);
    await shared.enqueueReleases(
      'class:c1',
      queued.map((r) => r.id),
    );
  });
  after(async () => {
    await shared.close();
    rmSync(dirB, { recursive: true, force: true });
  });

  const depsOf = (fleet: FleetMember, built: string[]): CycleDeps => ({
    store: shared,
    fleet,
    settings: fakeSettings(dirB),
    log: silentLog,
    upstreams: [upstream],
    signal: new AbortController().signal,
    suite: { name: 'quick' } as Suite,
    rounds: 5,
    observeHost: () => Promise.resolve(QUIET),
    build: async (release) => {
      built.push(`${fleet.hostName}:${release.tag}`);
      const key = await recordBuild(shared, release, dirB);
      const installDir = join(dirB, release.tag);
      return { status: 'built', release, key, installDir, logFile: `${installDir}.log`, failureLines: [] };
    },
    compare: fakeCompare(shared, []),
    // One disk for both fake daemons: what the store says is built is installed for each.
    installHere: () => Promise.resolve(),
  });

  test('a release another daemon of the slot holds is left to it; after its claim lapses, it is taken', async () => {
    const held = queued[1]!;
    const until = new Date(Date.now() + 60_000).toISOString();
    const claim = { slot: 'class:c1', releaseId: held.id, to: 'building' as const, claimant: 'h2', until };
    assert.ok(await shared.claimQueued(claim), 'h2 claims the second release');
    assert.equal(await shared.claimQueued({ ...claim, claimant: 'h1' }), undefined, 'a claimed row cannot be claimed');
    const built: string[] = [];
    await runCycle(depsOf(classFleet('h1'), built));
    assert.deepEqual(built, ['h1:mariadb-10.11.1', 'h1:mariadb-10.11.3']);
    const row = await shared.getQueued('class:c1', held.id);
    assert.deepEqual([row?.state, row?.claimedBy], ['building', 'h2']);

    // h2 dies; its claim lapses; h1's next cycle takes the release over and finishes it.
    const lapsed = new Date(Date.now() - 1000).toISOString();
    assert.equal(
      await shared.renewClaim({ slot: 'class:c1', releaseId: held.id, claimant: 'h2', until: lapsed }),
      true,
    );
    await runCycle(depsOf(classFleet('h1'), built));
    assert.deepEqual(built.slice(2), ['h1:mariadb-10.11.2']);
    assert.deepEqual(
      (await shared.listQueue('class:c1')).map((q) => [q.tag, q.state, q.claimedBy]),
      [
        ['mariadb-10.11.1', 'done', null],
        ['mariadb-10.11.2', 'done', null],
        ['mariadb-10.11.3', 'done', null],
      ],
    );
    // A move by the daemon that lost the row (it still thinks it builds) is refused: the row moved on without it.
    await assert.rejects(
      shared.moveQueued({ slot: 'class:c1', releaseId: held.id, from: 'building', to: 'built', claimant: 'h2' }),
      QueueStateError,
    );
    assert.equal((await shared.getQueued('class:c1', held.id))?.state, 'done');
  });
});
