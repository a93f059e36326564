import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DuplicateResultError,
  EventAlreadyOpenError,
  EventConflictError,
  EventNotOpenError,
  InvalidRecordError,
  SessionStateError,
  type CheckInput,
  type ImportedResultInput,
  type MessageInput,
  type Store,
  type VerdictInput,
} from '../../../src/store/index.js';
import { hostInput, sampleInput, sessionInput } from './store-inputs.js';
import { seriesReleaseSamples } from '../../../src/views/index.js';

const sha = (c: string): string => c.repeat(40);
const key = (version: string): string =>
  version
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');

export async function releases(store: Store, ...versions: string[]): Promise<Map<string, number>> {
  const { added } = await store.recordReleases(
    versions.map((v) => ({
      upstream: 'mariadb-10.11',
      flavor: 'mariadb',
      tag: `mariadb-${v}`,
      commit: sha('a'),
      version: v,
      versionKey: key(v),
    })),
  );
  return new Map(added.map((r) => [r.version, r.id]));
}

const releaseSide = (version: string) => ({
  name: `mariadb-${version}`,
  flavor: 'mariadb',
  version,
  binary: '/b/mariadbd',
  serverProfile: 'relaxed',
  description: {
    kind: 'release',
    upstream: 'mariadb-10.11',
    tag: `mariadb-${version}`,
    commit: sha('a'),
    buildKey: `k-${version}`,
  },
});

/** A done session of `candidate` against `baseline`, both releases, with one sample per side and test. */
export async function doneSession(
  store: Store,
  baseline: string,
  candidate: string,
  qps: { b: number; c: number } = { b: 1000, c: 900 },
): Promise<number> {
  const hostId = await store.upsertHost(hostInput());
  const id = await store.createSession(
    sessionInput(hostId, { baseline: releaseSide(baseline), candidate: releaseSide(candidate) }),
  );
  for (const test of ['update-index', 'point-query']) {
    await store.addSample(
      id,
      sampleInput({ role: 'baseline', targetName: `mariadb-${baseline}`, test, threads: 1, qps: qps.b }),
    );
    await store.addSample(
      id,
      sampleInput({
        role: 'candidate',
        targetName: `mariadb-${candidate}`,
        test,
        threads: 1,
        qps: qps.c,
        writeKBPerOp: 0.5,
      }),
    );
  }
  await store.finishSession(id);
  return id;
}

export const verdict = (test: string, kind: VerdictInput['kind'], relativeQps: number): VerdictInput => ({
  test,
  threads: 1,
  kind,
  relativeQps,
  threshold: 0.95,
  pSlower: kind === 'regression' ? 0.004 : 0.5,
  pFaster: 0.9,
  baselineSpread: 0.02,
  low: relativeQps * 0.97,
  high: relativeQps * 1.03,
  confidence: 0.95,
  detectableDrop: 0.041,
  pairs: 12,
  noise: 0.028,
  hint: kind === 'regression' ? [{ metric: 'wKB/o', baseline: 0.01, candidate: 0.5, ratio: 50 }] : [],
});

const message = (eventKey: string): MessageInput => ({
  eventKey,
  from: 'qpswatch@example.org',
  to: ['dba@example.org', 'perf@example.org'],
  subject: `qpswatch: ${eventKey}`,
  text: 'text part',
  html: '<p>html part</p>',
  messageId: `<${eventKey.replace(/[^a-z0-9.-]/gi, '-')}@qpswatch>`,
});

export function checkInput(
  sessionId: number,
  releaseId: number,
  baselineReleaseId: number,
  overrides: Partial<CheckInput> = {},
): CheckInput {
  return {
    sessionId,
    releaseId,
    baselineReleaseId,
    outcome: 'ok',
    verdicts: [],
    openEvents: [],
    fixedEventIds: [],
    messages: [],
    ...overrides,
  };
}

const result = (version: string, test: string, qps: number): ImportedResultInput => ({
  flavor: 'mariadb',
  version,
  versionKey: key(version),
  test,
  threads: 1,
  qps,
  cpuPerOp: 0.001,
  csPerOp: 2,
  readsPerOp: 0,
  readKBPerOp: 0,
  writeKBPerOp: 0.25,
});

/** Checks, regression events, triage, the outbox and imported results: the same behaviour from every backend. */
export function checkContract(name: string, open: () => Promise<Store>): void {
  async function withStore(body: (store: Store) => Promise<void>): Promise<void> {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  }

  describe(`store contract, checks and triage: ${name}`, () => {
    test('a check keeps its verdicts, opens one event per regressed test and queues its message, all at once', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        const check = await store.recordCheck(
          checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
            outcome: 'regression',
            verdicts: [
              verdict('update-index', 'regression', 0.24),
              { ...verdict('point-query', 'ok', 0.99), logSe: 0.012, logSeDf: 16 },
              verdict('scan', 'slower', 0.962),
            ],
            openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.24 }],
            messages: [message('regression:mariadb-10.11:update-index.t1:1')],
          }),
        );
        assert.equal(check.outcome, 'regression');
        assert.equal(check.invalid, false);
        const verdicts = await store.verdictsOfSession(sessionId);
        assert.deepEqual(
          verdicts.map((v) => [v.test, v.kind, v.relativeQps]),
          [
            ['update-index', 'regression', 0.24],
            ['point-query', 'ok', 0.99],
            ['scan', 'slower', 0.962],
          ],
        );
        assert.deepEqual(verdicts[0]?.hint, [{ metric: 'wKB/o', baseline: 0.01, candidate: 0.5, ratio: 50 }]);
        const reach = verdicts[1]!;
        assert.deepEqual(
          [reach.low, reach.high, reach.confidence, reach.detectableDrop, reach.pairs, reach.noise],
          [0.99 * 0.97, 0.99 * 1.03, 0.95, 0.041, 12, 0.028],
          'the interval and detectable drop are stored',
        );
        assert.deepEqual(
          verdicts.map((v) => [v.logSe, v.logSeDf]),
          [
            [null, null],
            [0.012, 16],
            [null, null],
          ],
          "the error and its degrees of freedom are stored; an older verdict's are null",
        );
        const events = await store.listEvents({ upstream: 'mariadb-10.11', state: 'open' });
        assert.deepEqual(
          events.map((e) => [e.test, e.threads, e.releaseId, e.baselineReleaseId, e.kind, e.acked]),
          [['update-index', 1, ids.get('10.11.3'), ids.get('10.11.2'), 'regression', false]],
        );
        const pending = await store.listMessages('pending');
        assert.equal(pending.length, 1);
        assert.deepEqual(pending[0]?.to, ['dba@example.org', 'perf@example.org']);
        assert.deepEqual(
          (await store.listChecks('mariadb-10.11')).map((c) => c.sessionId),
          [sessionId],
        );
      }));

    test('a check directly against the base opens drift events', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.1', '10.11.4');
        const sessionId = await doneSession(store, '10.11.1', '10.11.4');
        await store.recordCheck(
          checkInput(sessionId, ids.get('10.11.4')!, ids.get('10.11.1')!, {
            outcome: 'regression',
            verdicts: [verdict('point-query', 'regression', 0.91)],
            openEvents: [{ test: 'point-query', threads: 1, relativeQps: 0.91 }],
            eventKind: 'drift',
          }),
        );
        const events = await store.listEvents({ state: 'open' });
        assert.deepEqual(
          events.map((e) => [e.test, e.kind, e.baselineReleaseId]),
          [['point-query', 'drift', ids.get('10.11.1')]],
        );
      }));

    test('a check is conclusive only when every verdict is ok or improvement: the store applies the one rule', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.4');
        const decided = await doneSession(store, '10.11.2', '10.11.3');
        await store.recordCheck(
          checkInput(decided, ids.get('10.11.3')!, ids.get('10.11.2')!, {
            verdicts: [verdict('update-index', 'ok', 1), verdict('point-query', 'improvement', 1.2)],
          }),
        );
        const undecided = await doneSession(store, '10.11.2', '10.11.4');
        // Unstable at an estimate over the threshold: the old rule called this conclusive.
        await store.recordCheck(
          checkInput(undecided, ids.get('10.11.4')!, ids.get('10.11.2')!, {
            verdicts: [verdict('update-index', 'ok', 1), verdict('point-query', 'unstable', 0.97)],
          }),
        );
        assert.deepEqual(
          [(await store.getCheck(decided))?.conclusive, (await store.getCheck(undecided))?.conclusive],
          [true, false],
        );
      }));

    test('a verdict of a single pair keeps its unknown upper end and noise as null; Infinity and NaN are refused', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        const one = { ...verdict('point-query', 'unstable', 0.97), pairs: 1, high: null, noise: null };
        await assert.rejects(
          store.recordCheck(
            checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
              verdicts: [{ ...one, high: Number.POSITIVE_INFINITY }],
            }),
          ),
          /verdicts\[0\]\.high/,
        );
        await store.recordCheck(checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, { verdicts: [one] }));
        const [stored] = await store.verdictsOfSession(sessionId);
        assert.deepEqual([stored?.pairs, stored?.high, stored?.noise], [1, null, null]);
      }));

    test('a check that fails half way stores nothing: no check, no verdict, no event, no message', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        const input = checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
          verdicts: [verdict('update-index', 'regression', 0.24)],
          openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.24 }],
          fixedEventIds: [999],
          messages: [message('m1')],
        });
        await assert.rejects(
          store.recordCheck(input),
          (err: unknown) => err instanceof EventNotOpenError && err instanceof EventConflictError,
        );
        assert.equal(await store.getCheck(sessionId), undefined);
        assert.deepEqual(await store.verdictsOfSession(sessionId), []);
        assert.deepEqual(await store.listEvents({}), []);
        assert.deepEqual(await store.listMessages(), []);
      }));

    test('only a done session can be recorded as a check, and bad verdicts are refused by field', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const hostId = await store.upsertHost(hostInput());
        const running = await store.createSession(sessionInput(hostId));
        await assert.rejects(
          store.recordCheck(checkInput(running, ids.get('10.11.3')!, ids.get('10.11.2')!)),
          SessionStateError,
        );
        const done = await doneSession(store, '10.11.2', '10.11.3');
        await assert.rejects(
          store.recordCheck(
            checkInput(done, ids.get('10.11.3')!, ids.get('10.11.2')!, { verdicts: [verdict('x', 'ok', Number.NaN)] }),
          ),
          (err: unknown) => err instanceof InvalidRecordError && err.field === 'verdicts[0].relativeQps',
        );
      }));

    test('a later recovery closes the event as fixed by that release, with a fixed triage row by qpswatch', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.9');
        const first = await doneSession(store, '10.11.2', '10.11.3');
        await store.recordCheck(
          checkInput(first, ids.get('10.11.3')!, ids.get('10.11.2')!, {
            outcome: 'regression',
            openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.24 }],
          }),
        );
        const [event] = await store.listEvents({ state: 'open' });
        const second = await doneSession(store, '10.11.2', '10.11.9', { b: 1000, c: 1000 });
        await store.recordCheck(
          checkInput(second, ids.get('10.11.9')!, ids.get('10.11.2')!, {
            fixedEventIds: [event!.id],
            messages: [message('recovery:1')],
          }),
        );
        const [fixed] = await store.listEvents({});
        assert.equal(fixed?.state, 'fixed');
        assert.equal(fixed?.closedByReleaseId, ids.get('10.11.9'));
        const triage = await store.listTriage(ids.get('10.11.9'));
        assert.deepEqual(
          triage.map((t) => [t.action, t.test, t.threads, t.who]),
          [['fixed', 'update-index', 1, 'qpswatch']],
        );
      }));

    test('a second open event for the same test of an upstream is refused (one event until it closes)', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.4');
        const open = {
          outcome: 'regression' as const,
          openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.5 }],
        };
        await store.recordCheck(
          checkInput(await doneSession(store, '10.11.2', '10.11.3'), ids.get('10.11.3')!, ids.get('10.11.2')!, open),
        );
        const again = await doneSession(store, '10.11.2', '10.11.4');
        // By name, so a check planned on events read before another check opened this one can plan again.
        await assert.rejects(
          store.recordCheck(checkInput(again, ids.get('10.11.4')!, ids.get('10.11.2')!, open)),
          (err: unknown) =>
            err instanceof EventAlreadyOpenError &&
            err instanceof EventConflictError &&
            err.test === 'update-index' &&
            err.threads === 1,
        );
        assert.equal(await store.getCheck(again), undefined);
        assert.equal((await store.listEvents({ state: 'open' })).length, 1);
      }));

    test('ack marks the open events of a release (or of one test) and keeps them open', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        await store.recordCheck(
          checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
            outcome: 'regression',
            openEvents: [
              { test: 'update-index', threads: 1, relativeQps: 0.24 },
              { test: 'point-query', threads: 1, relativeQps: 0.9 },
            ],
          }),
        );
        const result = await store.triage({
          releaseId: ids.get('10.11.3')!,
          action: 'ack',
          test: { test: 'point-query' },
          who: 'ana',
          reason: 'known: new default',
        });
        assert.deepEqual(
          result.events.map((e) => [e.test, e.acked, e.state]),
          [['point-query', true, 'open']],
        );
        assert.equal(result.triage.who, 'ana');
        assert.equal(result.triage.reason, 'known: new default');
        assert.match(result.triage.at, /^\d{4}-\d{2}-\d{2}T/);
        const events = await store.listEvents({ state: 'open' });
        assert.deepEqual(
          events.map((e) => [e.test, e.acked]),
          [
            ['update-index', false],
            ['point-query', true],
          ],
        );
      }));

    test('accept closes the open events of the upstream up to that release as accepted', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        await store.recordCheck(
          checkInput(await doneSession(store, '10.11.2', '10.11.3'), ids.get('10.11.3')!, ids.get('10.11.2')!, {
            outcome: 'regression',
            openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.24 }],
          }),
        );
        const result = await store.triage({
          releaseId: ids.get('10.11.3')!,
          action: 'accept',
          who: 'ana',
          reason: 'durability fix, slower by design',
        });
        assert.deepEqual(
          result.events.map((e) => e.state),
          ['accepted'],
        );
        assert.deepEqual(await store.listEvents({ state: 'open' }), []);
        assert.deepEqual(
          (await store.listTriage()).map((t) => t.action),
          ['accept'],
        );
      }));

    test(
      'invalid marks the release checks, closes the events they opened and ' +
        'queues a rerun that the next check satisfies',
      () =>
        withStore(async (store) => {
          const ids = await releases(store, '10.11.2', '10.11.3');
          const sessionId = await doneSession(store, '10.11.2', '10.11.3');
          await store.recordCheck(
            checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
              outcome: 'regression',
              openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.24 }],
            }),
          );
          const result = await store.triage({
            releaseId: ids.get('10.11.3')!,
            action: 'invalid',
            who: 'ana',
            reason: 'backup ran during the session',
          });
          assert.equal(result.invalidatedChecks, 1);
          assert.deepEqual(
            result.events.map((e) => e.state),
            ['invalid'],
          );
          assert.equal((await store.getCheck(sessionId))?.invalid, true);
          assert.deepEqual(
            (await store.listReruns()).map((r) => [r.releaseId, r.reason]),
            [[ids.get('10.11.3'), 'backup ran during the session']],
          );
          assert.deepEqual(
            await seriesReleaseSamples(store, 'mariadb-10.11'),
            [],
            'samples of an invalid check do not count',
          );
          const rerun = await doneSession(store, '10.11.2', '10.11.3');
          await store.recordCheck(checkInput(rerun, ids.get('10.11.3')!, ids.get('10.11.2')!));
          assert.deepEqual(await store.listReruns(), []);
        }),
    );

    test('triage of an unknown release id is refused and stores nothing', () =>
      withStore(async (store) => {
        await assert.rejects(store.triage({ releaseId: 77, action: 'accept', who: 'ana', reason: '' }));
        assert.deepEqual(await store.listTriage(), []);
      }));

    test('release samples come from done sessions whose sides ran releases of the upstream', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        const samples = await seriesReleaseSamples(store, 'mariadb-10.11');
        assert.equal(samples.length, 4);
        const of = (version: string) =>
          samples.filter((s) => s.releaseId === ids.get(version)).map((s) => [s.test, s.qps, s.writeKBPerOp]);
        assert.deepEqual(of('10.11.2').sort(), [
          ['point-query', 1000, 0.012],
          ['update-index', 1000, 0.012],
        ]);
        assert.deepEqual(of('10.11.3').sort(), [
          ['point-query', 900, 0.5],
          ['update-index', 900, 0.5],
        ]);
        assert.ok(samples.every((s) => s.sessionId === sessionId));
        assert.deepEqual(await seriesReleaseSamples(store, 'mysql-8.0'), []);
      }));

    test('release samples of a session run under a memory setting carry the setting', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const hostId = await store.upsertHost(hostInput());
        const input = sessionInput(hostId, { baseline: releaseSide('10.11.2'), candidate: releaseSide('10.11.3') });
        const id = await store.createSession({ ...input, settings: { ...input.settings, memory: 'io-bound' } });
        await store.addSample(
          id,
          sampleInput({ role: 'baseline', targetName: 'mariadb-10.11.2', test: 'point-query', threads: 1, qps: 300 }),
        );
        await store.addSample(
          id,
          sampleInput({ role: 'candidate', targetName: 'mariadb-10.11.3', test: 'point-query', threads: 1, qps: 300 }),
        );
        await store.finishSession(id);
        assert.deepEqual(
          (await seriesReleaseSamples(store, 'mariadb-10.11')).map((s) => [s.releaseId, s.memory]),
          [
            [ids.get('10.11.2'), 'io-bound'],
            [ids.get('10.11.3'), 'io-bound'],
          ],
        );
        assert.equal((await store.getSession(id))?.settings['memory'], 'io-bound');
      }));
  });

  describe(`store contract, outbox: ${name}`, () => {
    async function queued(store: Store, keys: string[]): Promise<void> {
      const ids = await releases(store, '10.11.2', '10.11.3');
      await store.recordCheck(
        checkInput(await doneSession(store, '10.11.2', '10.11.3'), ids.get('10.11.3')!, ids.get('10.11.2')!, {
          messages: keys.map(message),
        }),
      );
    }

    test('a taken message is due to no other sender until its lease ends; a returned one is due at once', () =>
      withStore(async (store) => {
        await queued(store, ['a', 'b']);
        const now = new Date(Date.now() + 1000).toISOString();
        const lease = new Date(Date.now() + 600_000).toISOString();
        const [first, second] = await Promise.all([
          store.takeDueMessages(now, 10, lease),
          store.takeDueMessages(now, 10, lease),
        ]);
        // Two senders at once: each message went to one of them, never to both.
        assert.deepEqual([...first!, ...second!].map((m) => m.eventKey).sort(), ['a', 'b']);
        assert.deepEqual(await store.takeDueMessages(now, 10, lease), []);
        const taken = [...first!, ...second!];
        await store.returnMessage(taken.find((m) => m.eventKey === 'b')!.id, now);
        const again = await store.takeDueMessages(now, 10, lease);
        assert.deepEqual(
          again.map((m) => [m.eventKey, m.attempts]),
          [['b', 0]],
        );
        // A sender that died: its lease ends and the message is due again.
        const after = await store.takeDueMessages(new Date(Date.now() + 700_000).toISOString(), 10, lease);
        assert.deepEqual(after.map((m) => m.eventKey).sort(), ['a', 'b']);
      }));

    test('due messages are the pending ones whose time has come; sent ones never come back', () =>
      withStore(async (store) => {
        await queued(store, ['a', 'b']);
        const now = new Date(Date.now() + 1000).toISOString();
        const due = await store.dueMessages(now, 10);
        assert.deepEqual(
          due.map((m) => m.eventKey),
          ['a', 'b'],
        );
        await store.markMessageSent(due[0]!.id, '250 OK queued', now);
        await store.markMessageFailed(
          due[1]!.id,
          'connect ECONNREFUSED 127.0.0.1:2525',
          new Date(Date.now() + 60_000).toISOString(),
        );
        assert.deepEqual(await store.dueMessages(now, 10), []);
        const later = await store.dueMessages(new Date(Date.now() + 120_000).toISOString(), 10);
        assert.deepEqual(
          later.map((m) => [m.eventKey, m.attempts, m.lastError]),
          [['b', 1, 'connect ECONNREFUSED 127.0.0.1:2525']],
        );
        const [sent] = await store.listMessages('sent');
        assert.deepEqual([sent?.eventKey, sent?.detail, sent?.attempts], ['a', '250 OK queued', 1]);
        await store.markMessageSent(due[0]!.id, 'again', now);
        assert.equal(
          (await store.listMessages('sent'))[0]?.detail,
          '250 OK queued',
          'a sent message stays as it was sent',
        );
      }));

    test('a message whose event key is queued already is not queued again', () =>
      withStore(async (store) => {
        await queued(store, ['same']);
        const ids = new Map((await store.listReleases()).map((r) => [r.version, r.id]));
        await store.recordCheck(
          checkInput(await doneSession(store, '10.11.2', '10.11.3'), ids.get('10.11.3')!, ids.get('10.11.2')!, {
            messages: [message('same')],
          }),
        );
        assert.equal((await store.listMessages()).length, 1);
      }));

    test('a message without recipients or with a two-line subject is refused', () =>
      withStore(async (store) => {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        const bad = [
          { ...message('x'), to: [] },
          { ...message('y'), subject: 'a\r\nBcc: everyone@example.org' },
        ];
        for (const m of bad) {
          await assert.rejects(
            store.recordCheck(checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, { messages: [m] })),
            InvalidRecordError,
          );
        }
      }));
  });

  describe(`store contract, imported results: ${name}`, () => {
    test('imported rows are listed in version order with their source', () =>
      withStore(async (store) => {
        const counts = await store.importResults(
          [result('10.11.10', 'point-query', 2000), result('10.11.9', 'point-query', 1900)],
          'study.csv',
        );
        assert.deepEqual(counts, { added: 2, replaced: 0 });
        const rows = await store.listImportedResults();
        assert.deepEqual(
          rows.map((r) => [r.version, r.qps, r.source]),
          [
            ['10.11.9', 1900, 'study.csv'],
            ['10.11.10', 2000, 'study.csv'],
          ],
        );
      }));

    test('a row already stored is refused with nothing imported, unless replace', () =>
      withStore(async (store) => {
        await store.importResults([result('10.11.9', 'point-query', 1900)], 'one.csv');
        await assert.rejects(
          store.importResults(
            [result('10.11.10', 'point-query', 2000), result('10.11.9', 'point-query', 1)],
            'two.csv',
          ),
          (err: unknown) => err instanceof DuplicateResultError && err.index === 1,
        );
        assert.equal((await store.listImportedResults()).length, 1);
        const counts = await store.importResults([result('10.11.9', 'point-query', 1950)], 'three.csv', {
          replace: true,
        });
        assert.deepEqual(counts, { added: 0, replaced: 1 });
        assert.deepEqual(
          (await store.listImportedResults()).map((r) => [r.qps, r.source]),
          [[1950, 'three.csv']],
        );
      }));

    test('a negative or zero QPS is refused by field and nothing is imported', () =>
      withStore(async (store) => {
        await assert.rejects(
          store.importResults([result('10.11.9', 'a', 10), result('10.11.9', 'b', -5)], 'bad.csv'),
          (err: unknown) => err instanceof InvalidRecordError && err.field === 'qps',
        );
        assert.deepEqual(await store.listImportedResults(), []);
      }));
  });
}
