import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  EventNotFoundError,
  InvalidRecordError,
  ReleaseNotFoundError,
  type BisectionInput,
  type Store,
} from '../../../src/store/index.js';
import { checkInput, doneSession, releases, verdict } from './check-contract.js';

const commit = (c: string): string => c.repeat(40);

function bisection(releaseId: number, goodReleaseId: number): BisectionInput {
  return {
    releaseId,
    goodReleaseId,
    buildProfile: 'demo',
    tests: ['update-index'],
    commitCount: 3,
    outcome: 'found',
    firstBad: { commit: commit('b'), subject: `fsync at commit ("durable" <by default>) & more`, author: `O'Brien` },
    candidates: [],
    steps: [
      { commit: commit('a'), subject: 'broken', author: 'x', outcome: 'skip', buildKey: 'k1', failureLines: ['e'] },
      { commit: commit('b'), subject: 's', author: `O'Brien`, outcome: 'bad', sessionId: 7, relativeQps: { t: 0.2 } },
    ],
    builds: 2,
    startedAt: '2026-12-02T10:00:00.000Z',
    endedAt: '2026-12-02T10:05:00.000Z',
  };
}

/** Bisections, for every backend: stored as given (subjects as data), newest first, of a release. */
export function bisectionContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend} store: bisections`, () => {
    test('a bisection is stored and read back as given, newest first, of one release', async () => {
      const store = await open();
      try {
        const { added } = await store.recordReleases(
          ['10.5.1', '10.5.2', '10.5.3'].map((v) => ({
            upstream: 'demo',
            flavor: 'mariadb',
            tag: `mariadb-${v}`,
            commit: commit('c'),
            version: v,
            versionKey: v,
          })),
        );
        const [good, bad, later] = added.map((r) => r.id) as [number, number, number];
        const first = await store.recordBisection(bisection(bad, good));
        const budget: BisectionInput = { ...bisection(later, good), outcome: 'budget', candidates: [commit('d')] };
        delete budget.firstBad;
        const second = await store.recordBisection(budget);
        assert.deepEqual(first, { id: first.id, ...bisection(bad, good) });
        assert.deepEqual(
          (await store.listBisections()).map((b) => b.id),
          [second.id, first.id],
        );
        assert.deepEqual(
          (await store.listBisections({ releaseId: bad })).map((b) => b.firstBad?.subject),
          [bisection(bad, good).firstBad!.subject],
        );
        assert.equal((await store.listBisections({ limit: 1 })).length, 1);
      } finally {
        await store.close();
      }
    });

    test('an automatic bisection names its event, keeps a failure, and queues its email in the same step', async () => {
      const store = await open();
      try {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const [good, bad] = [ids.get('10.11.2')!, ids.get('10.11.3')!];
        const sessionId = await doneSession(store, '10.11.2', '10.11.3');
        await store.recordCheck(
          checkInput(sessionId, bad, good, {
            outcome: 'regression',
            verdicts: [verdict('update-index', 'regression', 0.5)],
            openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.5 }],
          }),
        );
        const eventId = (await store.listEvents({ state: 'open' }))[0]!.id;
        const failed: BisectionInput = {
          ...bisection(bad, good),
          outcome: 'failed',
          commitCount: 0,
          steps: [],
          builds: 0,
          eventId,
          error: 'the mirror could not be fetched',
        };
        delete failed.firstBad;
        const mail = { eventKey: `bisect/e${eventId}`, from: 'q@example.org', to: ['d@example.org'] };
        const rendered = { subject: 's', text: 't', html: '<p>h</p>', messageId: '<m@example.org>' };
        // An unknown event is refused, and its email is not queued either.
        await assert.rejects(
          store.recordBisection({ ...failed, eventId: eventId + 99 }, { ...mail, ...rendered }),
          EventNotFoundError,
        );
        assert.deepEqual(await store.listMessages(), []);
        const record = await store.recordBisection(failed, { ...mail, ...rendered });
        assert.deepEqual(record, { id: record.id, ...failed });
        assert.deepEqual(
          (await store.listMessages()).map((m) => m.eventKey),
          [`bisect/e${eventId}`],
        );
      } finally {
        await store.close();
      }
    });

    test('an unknown release or a bad commit id is refused with the field named', async () => {
      const store = await open();
      try {
        await assert.rejects(store.recordBisection(bisection(41, 42)), ReleaseNotFoundError);
        await assert.rejects(
          store.recordBisection({ ...bisection(1, 1), candidates: ['HEAD'] }),
          (err: unknown) => err instanceof InvalidRecordError && err.field === 'candidates[0]',
        );
      } finally {
        await store.close();
      }
    });
  });
}
