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
