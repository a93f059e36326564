import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkRelease, type CheckDeps } from '../../../src/checks/index.js';
import type { CompareRequest } from '../../../src/session/index.js';
import { openStore, type ReleaseRecord, type Store } from '../../../src/store/index.js';
import type { Suite } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { fakeCompare, fakeSettings, recordBuild, recordDemoReleases, upstream } from './fake-session.js';

/**
 * A check end to end on a real store, its session a fake given through the deps (`compare`): the verdicts it
 * returns become the check, the regression event and its email, as a real session's would.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-check-release-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let store: Store;
let releases: ReleaseRecord[];

function deps(compare: CheckDeps['compare']): CheckDeps {
  return {
    store,
    settings: fakeSettings(dir),
    log: silentLog,
    upstreams: [upstream],
    signal: new AbortController().signal,
    ...(compare !== undefined ? { compare } : {}),
  };
}

const request = (release: ReleaseRecord) => ({ release, suite: { name: 'quick' } as Suite, rounds: 5 });

describe('checkRelease with a fake session', () => {
  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    releases = await recordDemoReleases(store, ['10.11.1', '10.11.2']);
    for (const r of releases) await recordBuild(store, r, dir);
  });
  after(() => store.close());

  test('the first release of a series is accepted without a session', async () => {
    const result = await checkRelease(
      request(releases[0]!),
      deps(() => assert.fail('no session for the first')),
    );
    assert.equal(result.kind, 'first');
  });

  test('the next one is measured against it: its regression is stored, opened and emailed', async () => {
    const asked: CompareRequest[] = [];
    const result = await checkRelease(request(releases[1]!), deps(fakeCompare(store, asked)));
    assert.deepEqual(
      asked.map((r) => [r.baseline, r.candidate, r.rounds]),
      [['mariadb-10.11.1', 'mariadb-10.11.2', 5]],
    );
    assert.equal(result.kind, 'checked');
    assert.equal(result.against, 'last good');
    const checks = await store.listChecks('demo');
    assert.deepEqual(
      checks.map((c) => [c.releaseId, c.baselineReleaseId, c.outcome]),
      [[releases[1]!.id, releases[0]!.id, 'regression']],
    );
    const events = await store.listEvents({ upstream: 'demo', state: 'open' });
    assert.deepEqual(
      events.map((e) => e.test),
      ['update-index'],
    );
    assert.equal(result.messagesQueued, 1);
    // No SMTP host: the outbox keeps the sent message as a file.
    const sent = readdirSync(join(dir, 'outbox')).filter((f) => f.endsWith('.eml'));
    assert.equal(sent.length, 1);
    assert.match(readFileSync(join(dir, 'outbox', sent[0]!), 'utf8'), /update-index/);
  });
});

describe('checkRelease when another host records a check of the series meanwhile', () => {
  const raceDir = mkdtempSync(join(tmpdir(), 'qpswatch-check-race-'));
  after(() => rmSync(raceDir, { recursive: true, force: true }));

  // A fleet's two hosts check one release at once: the other host's check opens the regression event after this
  // check read the open events and before it is recorded; the profile is taken in that window, so the fake
  // profiler records the other check.
  test('the store refuses the stale plan, the check plans again: the event continues, no second email', async () => {
    const raceStore = await openStore({ backend: 'sqlite', path: join(raceDir, 'qpswatch.sqlite') });
    try {
      const [first, second] = await recordDemoReleases(raceStore, ['10.11.1', '10.11.2']);
      for (const r of [first!, second!]) await recordBuild(raceStore, r, raceDir);
      const settings = { ...fakeSettings(raceDir), profiling: 'auto' as const };
      const base = { store: raceStore, settings, log: silentLog, upstreams: [upstream] };
      const signal = new AbortController().signal;
      await checkRelease(request(first!), { ...base, signal, compare: () => assert.fail('no session') });
      let otherSession = 0;
      let profiled = 0;
      const takeProfile: CheckDeps['takeProfile'] = async () => {
        profiled++;
        const other = await fakeCompare(raceStore, [])(
          { baseline: first!.tag, candidate: second!.tag, suite: { name: 'quick' } as Suite, rounds: 5 },
          { ...base, signal },
        );
        otherSession = other.sessionId;
        const regressed = other.verdicts.find((v) => v.test === 'update-index')!;
        await raceStore.recordCheck({
          sessionId: other.sessionId,
          releaseId: second!.id,
          baselineReleaseId: first!.id,
          outcome: 'regression',
          verdicts: other.verdicts,
          openEvents: [{ test: 'update-index', threads: regressed.threads, relativeQps: regressed.relativeQps }],
          fixedEventIds: [],
          messages: [],
        });
        return {
          id: 1,
          baseline: { tool: 'perf', samples: 1, stacks: [{ stack: 'main;write', count: 1 }] },
          candidate: { tool: 'perf', samples: 1, stacks: [{ stack: 'main;write', count: 1 }] },
          grown: [],
        };
      };
      const suite = { name: 'quick', tests: [{ name: 'update-index' }] } as unknown as Suite;
      const result = await checkRelease(
        { release: second!, suite, rounds: 5 },
        { ...base, signal, compare: fakeCompare(raceStore, []), takeProfile },
      );
      assert.equal(profiled, 1, 'the profile is taken once');
      assert.equal(result.kind, 'checked');
      if (result.kind !== 'checked') return;
      assert.notEqual(result.sessionId, otherSession);
      assert.ok(await raceStore.getCheck(result.sessionId), 'the check is recorded');
      assert.deepEqual(result.plan.opened, []);
      assert.deepEqual(
        result.plan.continuing.map((v) => v.test),
        ['update-index'],
      );
      const open = await raceStore.listEvents({ upstream: 'demo', state: 'open' });
      assert.deepEqual(
        open.map((e) => [e.test, e.sessionId]),
        [['update-index', otherSession]],
      );
      assert.equal(result.messagesQueued, 0, 'the other host sent the event its email');
    } finally {
      await raceStore.close();
    }
  });
});
