import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ComparisonView } from '../../../src/model/index.js';
import { bisectMessage, bisectNewEvents, type BisectRequest, type EventBisectDeps } from '../../../src/bisect/index.js';
import { type CheckResult } from '../../../src/checks/index.js';
import { openStore, type BisectionInput, type ReleaseRecord, type Store } from '../../../src/store/index.js';
import { loadSuite } from '../../../src/suite/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { projectRoot } from '../../helpers/paths.js';
import { silentLog } from '../../helpers/silent-log.js';
import { checkInput, doneSession, releases, verdict } from '../store/check-contract.js';

const HOSTILE_SUBJECT = '<script>alert(1)</script> & "quotes" \u001b[31mred';
const HOSTILE_AUTHOR = `O'Brien <ob@example.org> & <b>bold</b>`;
const sha = (c: string): string => c.repeat(40);
const suite = loadSuite('quick', join(projectRoot, 'config', 'suites'));
const upstream = parseUpstream({
  name: 'mariadb-10.11',
  remote: '/nonexistent',
  flavor: 'mariadb',
  series: '10.11',
  build_profile: 'demo',
  server_profile: 'relaxed',
});

/** What a real walk returns for the slow commit found in 4 builds, one of them a commit that did not build. */
function foundWalk(request: BisectRequest): BisectionInput {
  const step = (c: string, outcome: 'good' | 'bad' | 'skip', subject = `commit ${c}`) => ({
    commit: sha(c),
    subject,
    author: HOSTILE_AUTHOR,
    outcome,
    ...(outcome === 'skip' ? { failureLines: ['error: broken'] } : { relativeQps: { 'update-index.t1': 0.5 } }),
  });
  return {
    releaseId: request.release.id,
    goodReleaseId: request.good.id,
    buildProfile: 'demo',
    tests: request.tests,
    commitCount: 16,
    outcome: 'found',
    firstBad: { commit: sha('b'), subject: HOSTILE_SUBJECT, author: HOSTILE_AUTHOR },
    candidates: [],
    steps: [step('c', 'good'), step('d', 'skip'), step('e', 'bad'), step('b', 'bad', HOSTILE_SUBJECT)],
    builds: 4,
    startedAt: new Date().toISOString(),
    endedAt: new Date().toISOString(),
  };
}

describe('bisect: true, on a real SQLite store with a fake bisection runner', () => {
  let dir: string;
  let store: Store;
  let check: CheckResult;
  let eventId: number;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'qpsw-event-bisect-'));
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    const ids = await releases(store, '10.11.2', '10.11.3');
    const sessionId = await doneSession(store, '10.11.2', '10.11.3');
    const regressed = verdict('update-index', 'regression', 0.5);
    const record = await store.recordCheck(
      checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
        outcome: 'regression',
        verdicts: [regressed, verdict('point-query', 'ok', 1)],
        openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.5 }],
      }),
    );
    const [good, bad] = [await store.getRelease(ids.get('10.11.2')!), await store.getRelease(ids.get('10.11.3')!)];
    eventId = (await store.listEvents({ state: 'open' }))[0]!.id;
    check = {
      kind: 'checked',
      release: bad!,
      baseline: good!,
      against: 'last good',
      sessionId,
      // The hook reads the plan and the releases, never the comparison's tables.
      view: {} as ComparisonView,
      verdicts: [regressed],
      check: record,
      plan: { opened: [regressed], continuing: [], fixed: [] },
      messagesQueued: 1,
    };
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  function deps(enabled: boolean, run: EventBisectDeps['runBisection']): EventBisectDeps {
    return {
      settings: {
        bisect: { enabled, maxBuilds: 7, maxHours: 2 },
        alerts: { emailTo: ['dba@example.org'], emailFrom: 'qpswatch@example.org', grafanaUrl: '' },
        mail: {
          smtpHost: '',
          smtpPort: 25,
          smtpSecure: false,
          smtpUser: '',
          smtpPassword: '',
          smtpAllowPlaintextAuth: false,
          outboxDir: join(dir, 'outbox'),
          timeoutMs: 5000,
        },
      },
      store,
      log: silentLog,
      signal: new AbortController().signal,
      upstreams: [upstream],
      runBisection: run,
    };
  }

  test('a new regression is bisected once, for its tests, within the budget; linked and emailed once', async () => {
    const requests: BisectRequest[] = [];
    const run: EventBisectDeps['runBisection'] = async (request) => {
      requests.push(request);
      return { input: foundWalk(request) };
    };
    const record = await bisectNewEvents(check, { suite }, deps(true, run));
    assert.equal(record?.eventId, eventId);
    assert.equal(record?.outcome, 'found');
    assert.equal(record?.firstBad?.subject, HOSTILE_SUBJECT);
    assert.deepEqual(
      requests.map((r) => [r.release.tag, r.good.tag, r.tests, r.maxBuilds, r.maxHours, r.firstParent]),
      [['mariadb-10.11.3', 'mariadb-10.11.2', ['update-index.t1'], 7, 2, true]],
    );
    assert.deepEqual(
      requests[0]!.suite.tests.map((t) => t.name),
      ['update-index'],
    );
    // The same check seen again (a retry) neither bisects nor emails twice.
    assert.equal(await bisectNewEvents(check, { suite }, deps(true, run)), undefined);
    assert.equal(requests.length, 1);
    const stored = await store.listBisections({ releaseId: check.release.id });
    assert.deepEqual(
      stored.map((b) => [b.eventId, b.builds]),
      [[eventId, 4]],
    );
    const sent = (await store.listMessages()).filter((m) => m.eventKey.startsWith('bisect/'));
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.state, 'sent');
    assert.equal(sent[0]!.subject, 'qpswatch: mariadb mariadb-10.11.3 bisected: first bad commit bbbbbbb');
    assert.equal((await readdir(join(dir, 'outbox'))).filter((f) => f.endsWith('.eml')).length, 1);
  });

  test('the email escapes subjects and authors in HTML and keeps control characters out of text', async () => {
    await bisectNewEvents(
      check,
      { suite },
      deps(true, async (request) => ({ input: foundWalk(request) })),
    );
    const message = (await store.listMessages()).find((m) => m.eventKey.startsWith('bisect/'))!;
    assert.ok(!message.html.includes('<script>'), 'no live script tag');
    assert.ok(!message.html.includes('<b>bold</b>'), 'no live markup from the author');
    assert.ok(message.html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;'));
    assert.ok(message.html.includes('O&#39;Brien &lt;ob@example.org&gt; &amp; &lt;b&gt;bold&lt;/b&gt;'));
    assert.ok(!message.text.includes('\u001b'), 'no escape sequence reaches a terminal');
    assert.ok(message.text.includes('<script>alert(1)</script> & "quotes" \\x1b[31mred'));
    assert.match(message.text, /First bad commit: b{40}/);
    assert.match(message.text, /Builds: 4\./);
    assert.match(message.text, /ddddddd .* skipped .* -/);
  });

  test('a bisection that fails is stored as failed, with its email, and the check stands', async () => {
    const record = await bisectNewEvents(
      check,
      { suite },
      deps(true, async () => {
        throw new Error('bisect: "mariadb-10.11.2" is not an ancestor of "mariadb-10.11.3"');
      }),
    );
    assert.equal(record?.outcome, 'failed');
    assert.equal(record?.eventId, eventId);
    assert.match(record?.error ?? '', /not an ancestor/);
    const message = (await store.listMessages()).find((m) => m.eventKey.startsWith('bisect/'))!;
    assert.equal(message.subject, 'qpswatch: mariadb mariadb-10.11.3 bisected: bisect could not decide');
    assert.match(message.text, /It failed: bisect: "mariadb-10\.11\.2" is not an ancestor/);
  });

  test('bisect: false, a check with no new event, or a drift opens no bisection', async () => {
    let calls = 0;
    const run: EventBisectDeps['runBisection'] = async (request) => {
      calls += 1;
      return { input: foundWalk(request) };
    };
    assert.equal(await bisectNewEvents(check, { suite }, deps(false, run)), undefined);
    if (check.kind !== 'checked') throw new Error('unreachable');
    const quiet: CheckResult = { ...check, plan: { opened: [], continuing: check.plan.opened, fixed: [] } };
    assert.equal(await bisectNewEvents(quiet, { suite }, deps(true, run)), undefined);
    assert.equal(await bisectNewEvents({ ...check, against: 'base' }, { suite }, deps(true, run)), undefined);
    assert.equal(calls, 0);
    assert.deepEqual(await store.listBisections(), []);
  });

  test('an abort (SIGTERM) during the bisection goes on up and stores nothing', async () => {
    const abort = new AbortController();
    const aborting = {
      ...deps(true, async () => {
        abort.abort(new Error('SIGTERM'));
        throw new Error('stopped');
      }),
      signal: abort.signal,
    };
    await assert.rejects(bisectNewEvents(check, { suite }, aborting), /stopped/);
    assert.deepEqual(await store.listBisections(), []);
  });
});

test('bisect --email: a key of its own (release, start time); no email without email_to', () => {
  const release = { id: 3, tag: 'mariadb-10.11.3' } as ReleaseRecord;
  const good = { id: 2, tag: 'mariadb-10.11.2' } as ReleaseRecord;
  const bisection = foundWalk({ release, good, tests: ['update-index'] } as BisectRequest);
  const alerts = { emailTo: ['dba@example.org'], emailFrom: 'qpswatch@example.org', grafanaUrl: '' };
  const byHand = bisectMessage({ alerts, upstream, release, good, bisection })!;
  assert.equal(byHand.eventKey, `bisect/mariadb-10.11/mariadb-10.11.3/release-3.${Date.parse(bisection.startedAt)}`);
  assert.equal(byHand.messageId, `<qpswatch.bisect.release-3.${Date.parse(bisection.startedAt)}@example.org>`);
  assert.equal(
    bisectMessage({ alerts, upstream, release, good, bisection, eventId: 9 })!.eventKey.endsWith('/event-9'),
    true,
  );
  assert.equal(bisectMessage({ alerts: { ...alerts, emailTo: [] }, upstream, release, good, bisection }), undefined);
});
