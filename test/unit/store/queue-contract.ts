import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  InvalidRecordError,
  QueueClaimError,
  QueueStateError,
  ReleaseNotFoundError,
  SessionNotFoundError,
  type Store,
} from '../../../src/store/index.js';
import { hostInput, sessionInput } from './store-inputs.js';

const key = (version: string): string =>
  version
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');

async function releases(store: Store, upstream: string, ...versions: string[]): Promise<Map<string, number>> {
  const { added } = await store.recordReleases(
    versions.map((v) => ({
      upstream,
      flavor: 'mariadb',
      tag: `mariadb-${v}`,
      commit: 'c'.repeat(40),
      version: v,
      versionKey: key(v),
    })),
  );
  return new Map(added.map((r) => [r.version, r.id]));
}

/** The queue slot of these tests: one host's (fleet.ts), as a daemon named h1 works it. */
const S = 'h1';
/** Recovery by h1's restart: its own claims, and every lapsed one. */
const scope = (now = new Date().toISOString()) => ({ slot: S, claimant: 'h1', now });

/** The daemon's queue, its one-row state and the quiet-host observations, for every backend. */
export function queueContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend} store: daemon queue`, () => {
    const withStore = (body: (store: Store) => Promise<void>) => async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    };

    test(
      'enqueue is idempotent: a queued release keeps its state and attempts',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.9', '10.11.10');
        const first = await store.enqueueReleases(S, [...ids.values()]);
        assert.deepEqual(
          first.map((q) => [q.tag, q.state, q.attempts, q.lastError]),
          [
            ['mariadb-10.11.9', 'discovered', 0, null],
            ['mariadb-10.11.10', 'discovered', 0, null],
          ],
        );
        await store.moveQueued({ slot: S, releaseId: ids.get('10.11.9')!, to: 'building' });
        assert.deepEqual(await store.enqueueReleases(S, [...ids.values()]), []);
        assert.equal((await store.getQueued(S, ids.get('10.11.9')!))?.state, 'building');
        assert.equal((await store.getQueued(S, ids.get('10.11.9')!))?.attempts, 1);
      }),
    );

    test(
      'the queue lists in version order, not tag text order, across upstreams',
      withStore(async (store) => {
        const a = await releases(store, 'mariadb-10.11', '10.11.10', '10.11.9');
        const b = await releases(store, 'mariadb-11.4', '11.4.1');
        await store.enqueueReleases(S, [...b.values(), ...a.values()]);
        assert.deepEqual(
          (await store.listQueue()).map((q) => q.version),
          ['10.11.9', '10.11.10', '11.4.1'],
        );
      }),
    );

    test(
      'a release walks the queue to done; attempts count builds and benchmarks started; counts by state',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.9', '10.11.10', '10.11.11');
        const [r9, r10, r11] = [...ids.values()] as [number, number, number];
        await store.enqueueReleases(S, [r9, r10, r11]);
        for (const to of ['building', 'built', 'benchmarking', 'done'] as const)
          await store.moveQueued({ slot: S, releaseId: r9, to });
        await store.moveQueued({ slot: S, releaseId: r10, to: 'building' });
        const failed = await store.moveQueued({
          slot: S,
          releaseId: r10,
          to: 'failed',
          error: 'cmake: expected ; before }',
        });
        assert.equal(failed.lastError, 'cmake: expected ; before }');
        const done = await store.getQueued(S, r9);
        assert.equal(done?.state, 'done');
        assert.equal(done?.attempts, 2);
        assert.equal(done?.lastError, null);
        assert.deepEqual(await store.countQueue(), {
          discovered: 1,
          building: 0,
          built: 0,
          benchmarking: 0,
          done: 1,
          failed: 1,
        });
      }),
    );

    test(
      'a move the state machine does not allow, or of a release not queued, is refused and changes nothing',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.9', '10.11.10');
        const r9 = ids.get('10.11.9')!;
        await store.enqueueReleases(S, [r9]);
        await assert.rejects(
          store.moveQueued({ slot: S, releaseId: r9, to: 'done' }),
          (e: unknown) => e instanceof QueueStateError && e.from === 'discovered' && e.to === 'done',
        );
        assert.equal((await store.getQueued(S, r9))?.state, 'discovered');
        await assert.rejects(
          store.moveQueued({ slot: S, releaseId: ids.get('10.11.10')!, to: 'building' }),
          (e: unknown) => e instanceof QueueStateError && e.from === undefined,
        );
        await assert.rejects(store.moveQueued({ slot: S, releaseId: r9, to: 'lost' as never }), InvalidRecordError);
        await assert.rejects(store.enqueueReleases(S, [9999]), ReleaseNotFoundError);
      }),
    );

    test(
      'a rerun sends a done release back to built and clears its last error; a failed one may go back too',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.9');
        const r9 = ids.get('10.11.9')!;
        await store.enqueueReleases(S, [r9]);
        for (const to of [
          'building',
          'built',
          'benchmarking',
          'failed',
          'built',
          'benchmarking',
          'done',
          'built',
        ] as const) {
          await store.moveQueued({
            slot: S,
            releaseId: r9,
            to,
            ...(to === 'failed' ? { error: 'mysqld crashed' } : {}),
          });
        }
        const back = await store.getQueued(S, r9);
        assert.equal(back?.state, 'built');
        assert.equal(back?.lastError, null);
        assert.equal(back?.attempts, 3);
      }),
    );

    test(
      'recovery puts back what a dead daemon left half-way: building -> discovered, benchmarking -> built',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.9', '10.11.10', '10.11.11');
        const [r9, r10, r11] = [...ids.values()] as [number, number, number];
        await store.enqueueReleases(S, [r9, r10, r11]);
        await store.moveQueued({ slot: S, releaseId: r9, to: 'building' });
        for (const to of ['building', 'built', 'benchmarking'] as const)
          await store.moveQueued({ slot: S, releaseId: r10, to });
        const recovered = await store.recoverQueue(scope());
        assert.deepEqual(
          recovered.rebuilt.map((q) => [q.releaseId, q.state]),
          [[r9, 'discovered']],
        );
        assert.deepEqual(
          recovered.rebenchmarked.map((q) => [q.releaseId, q.state]),
          [[r10, 'built']],
        );
        assert.equal((await store.getQueued(S, r11))?.state, 'discovered');
        assert.deepEqual(await store.recoverQueue(scope()), { rebuilt: [], rebenchmarked: [] });
      }),
    );

    test(
      'a failed attempt goes back to its step with a next attempt; a success clears the failures; recovery keeps them',
      withStore(async (store) => {
        const id = (await releases(store, 'mariadb-10.11', '10.11.9')).get('10.11.9')!;
        await store.enqueueReleases(S, [id]);
        await store.moveQueued({ slot: S, releaseId: id, to: 'building' });
        const retry = await store.failQueued({
          slot: S,
          releaseId: id,
          step: 'build',
          error: 'git fetch failed',
          errorLines: ['fatal: unable to access', 'git fetch failed'],
          retryAt: '2026-01-02T03:34:05.000Z',
        });
        assert.deepEqual(
          [retry.state, retry.failures, retry.failedStep, retry.nextAttemptAt, retry.lastError, retry.errorLines],
          [
            'discovered',
            1,
            'build',
            '2026-01-02T03:34:05.000Z',
            'git fetch failed',
            ['fatal: unable to access', 'git fetch failed'],
          ],
        );
        await store.moveQueued({ slot: S, releaseId: id, to: 'building' });
        assert.equal(
          (await store.recoverQueue(scope())).rebuilt[0]?.failures,
          1,
          'a daemon killed mid-build does not give the release a fresh start',
        );
        await store.moveQueued({ slot: S, releaseId: id, to: 'building' });
        const built = await store.moveQueued({ slot: S, releaseId: id, to: 'built' });
        assert.deepEqual(
          [built.failures, built.failedStep, built.nextAttemptAt, built.errorLines, built.attempts],
          [0, null, null, [], 3],
        );
        // A session may fail before its row leaves built (the quiet-host wait): built -> built is a retry too.
        const again = await store.failQueued({
          slot: S,
          releaseId: id,
          step: 'session',
          error: 'host busy',
          errorLines: ['host busy'],
          retryAt: '2026-01-02T04:00:00.000Z',
        });
        assert.deepEqual([again.state, again.failures, again.failedStep], ['built', 1, 'session']);
        await assert.rejects(
          store.failQueued({ slot: S, releaseId: id, step: 'session', error: 'x', errorLines: [], retryAt: 'soon' }),
          InvalidRecordError,
        );
      }),
    );

    test(
      'the last failed attempt fails the row and queues its email in the same transaction, once per event key',
      withStore(async (store) => {
        const id = (await releases(store, 'mariadb-10.11', '10.11.9')).get('10.11.9')!;
        await store.enqueueReleases(S, [id]);
        await store.moveQueued({ slot: S, releaseId: id, to: 'building' });
        const message = {
          eventKey: 'could-not-build/mariadb-10.11/mariadb-10.11.9/attempt-1',
          from: 'q@example.org',
          to: ['dba@example.org'],
          subject: 'qpswatch: could not build mariadb-10.11.9',
          text: 't',
          html: '<p>h</p>',
          messageId: '<m@example.org>',
        };
        const failed = await store.failQueued({
          slot: S,
          releaseId: id,
          step: 'build',
          error: 'build failed',
          errorLines: ['a.c:1: error: expected ;'],
          message,
        });
        assert.deepEqual(
          [failed.state, failed.failures, failed.nextAttemptAt, failed.lastError],
          ['failed', 1, null, 'build failed'],
        );
        assert.deepEqual(
          (await store.listMessages('pending')).map((m) => m.subject),
          [message.subject],
        );
        // The same give-up recorded again (a daemon killed and redoing it) queues nothing more.
        await store.moveQueued({ slot: S, releaseId: id, to: 'discovered' });
        await store.moveQueued({ slot: S, releaseId: id, to: 'building' });
        await store.failQueued({
          slot: S,
          releaseId: id,
          step: 'build',
          error: 'build failed',
          errorLines: [],
          message,
        });
        assert.equal((await store.listMessages()).length, 1);
        assert.equal(await store.nextMessageDue(), (await store.listMessages())[0]!.nextAttemptAt);
        await store.markMessageSent((await store.listMessages())[0]!.id, '250 ok', '2026-01-02T03:04:05.000Z');
        assert.equal(await store.nextMessageDue(), null, 'nothing pending: nothing to wake up for');
      }),
    );

    test(
      'the daemon state starts empty and keeps the fields not given',
      withStore(async (store) => {
        assert.deepEqual(await store.getDaemonState(''), {
          lastPollAt: null,
          phase: 'idle',
          phaseSince: null,
          detail: null,
          pid: null,
          progress: null,
          cacheSizes: null,
          updatedAt: null,
        });
        await store.setDaemonState('', { lastPollAt: '2026-01-02T03:04:05.000Z' });
        const state = await store.setDaemonState('', {
          phase: 'waiting_for_quiet_host',
          phaseSince: '2026-01-02T03:05:00.000Z',
          detail: 'CPU busy 80%',
          pid: 4242,
        });
        assert.equal(state.lastPollAt, '2026-01-02T03:04:05.000Z');
        assert.equal(state.phase, 'waiting_for_quiet_host');
        assert.equal(state.detail, 'CPU busy 80%');
        assert.equal(state.pid, 4242);
        assert.ok(state.updatedAt !== null);
        assert.equal((await store.setDaemonState('', { phase: 'idle', detail: null })).detail, null);
        await assert.rejects(store.setDaemonState('', { lastPollAt: 'yesterday' }), InvalidRecordError);
      }),
    );

    test(
      'the daemon state keeps the work progress and the cache sizes as written, and clears them',
      withStore(async (store) => {
        const progress = {
          kind: 'build',
          tag: 'mariadb-10.11.1',
          step: 'build',
          done: 12,
          total: 480,
          ratio: 0.025,
          startedAt: '2026-01-02T03:04:05.000Z',
          endsAt: '2026-01-02T03:34:05.000Z',
          etaFrom: 'last_build',
        } as const;
        const cacheSizes = {
          measuredAt: '2026-01-02T03:00:00.000Z',
          bytes: { ccache: 1024, mirrors: 2048, builds: 0 },
        };
        await store.setDaemonState('', { progress, cacheSizes });
        assert.deepEqual((await store.getDaemonState('')).progress, progress);
        assert.deepEqual(
          (await store.setDaemonState('', { progress: null })).cacheSizes,
          cacheSizes,
          'a field not given is kept',
        );
        assert.equal((await store.getDaemonState('')).progress, null);
      }),
    );

    test(
      'the quiet-host check is stored with its session and read back whole',
      withStore(async (store) => {
        const sessionId = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        const observation = {
          windowSeconds: 5.001,
          busyPercent: 42.5,
          availableBytes: 8e9,
          swapPagesPerSecond: 0,
          governors: ['none'],
          loadAverage1: 1.2,
        };
        await store.recordQuietHost({
          sessionId,
          observation,
          quiet: false,
          reasons: ['CPU busy 42.5% over 5 s, limit 10%'],
          waitedSeconds: 600,
        });
        const stored = await store.getQuietHost(sessionId);
        assert.deepEqual(stored?.observation, observation);
        assert.equal(stored?.quiet, false);
        assert.deepEqual(stored?.reasons, ['CPU busy 42.5% over 5 s, limit 10%']);
        assert.equal(stored?.waitedSeconds, 600);
        assert.equal(await store.getQuietHost(sessionId + 1), undefined);
        await assert.rejects(
          store.recordQuietHost({ sessionId: sessionId + 1, observation, quiet: true, reasons: [], waitedSeconds: 0 }),
          SessionNotFoundError,
        );
        await assert.rejects(
          store.recordQuietHost({ sessionId, observation, quiet: true, reasons: [], waitedSeconds: -1 }),
          InvalidRecordError,
        );
        // A second check of the same session (the host became quiet after a wait) replaces the first.
        await store.recordQuietHost({ sessionId, observation, quiet: true, reasons: [], waitedSeconds: 30.5 });
        const again = await store.getQuietHost(sessionId);
        assert.equal(again?.quiet, true);
        assert.deepEqual(again?.reasons, []);
        assert.equal(again?.waitedSeconds, 30.5);
      }),
    );

    test(
      'a claim takes a row once: a second claimant, or a claim from the wrong state, gets undefined',
      withStore(async (store) => {
        const id = (await releases(store, 'mariadb-10.11', '10.11.9')).get('10.11.9')!;
        await store.enqueueReleases(S, [id]);
        const until = new Date(Date.now() + 60_000).toISOString();
        const claim = { slot: S, releaseId: id, to: 'building' as const, until };
        const [a, b] = await Promise.all([
          store.claimQueued({ ...claim, claimant: 'h1' }),
          store.claimQueued({ ...claim, claimant: 'h2' }),
        ]);
        assert.equal([a, b].filter((r) => r !== undefined).length, 1, 'one of two claims at once wins');
        const row = (a ?? b)!;
        assert.deepEqual([row.state, row.attempts, row.claimExpiresAt], ['building', 1, until]);
        const winner = row.claimedBy!;
        const loser = winner === 'h1' ? 'h2' : 'h1';
        assert.equal(await store.claimQueued({ ...claim, to: 'benchmarking', claimant: loser }), undefined);
        // The loser may not move it; the winner may, and the move drops the claim.
        await assert.rejects(
          store.moveQueued({ slot: S, releaseId: id, to: 'built', claimant: loser }),
          (e: unknown) => e instanceof QueueClaimError && e.claimedBy === winner,
        );
        assert.equal(await store.renewClaim({ slot: S, releaseId: id, claimant: loser, until }), false);
        assert.equal(await store.renewClaim({ slot: S, releaseId: id, claimant: winner, until }), true);
        const built = await store.moveQueued({
          slot: S,
          releaseId: id,
          from: 'building',
          to: 'built',
          claimant: winner,
        });
        assert.deepEqual([built.state, built.claimedBy, built.claimExpiresAt], ['built', null, null]);
        // A move that expects another state than the row's is refused: the row moved on since it was read.
        await assert.rejects(
          store.moveQueued({ slot: S, releaseId: id, from: 'building', to: 'built' }),
          (e: unknown) => e instanceof QueueStateError && e.from === 'built',
        );
      }),
    );

    test(
      "slots are apart: each has its own row of a release; listQueue without a slot shows every slot's",
      withStore(async (store) => {
        const id = (await releases(store, 'mariadb-10.11', '10.11.9')).get('10.11.9')!;
        assert.equal((await store.enqueueReleases('h1', [id])).length, 1);
        assert.equal((await store.enqueueReleases('h2', [id])).length, 1);
        await store.moveQueued({ slot: 'h1', releaseId: id, to: 'building' });
        assert.equal((await store.getQueued('h2', id))?.state, 'discovered');
        assert.deepEqual(
          (await store.listQueue()).map((q) => [q.slot, q.state]),
          [
            ['h1', 'building'],
            ['h2', 'discovered'],
          ],
        );
        assert.deepEqual(
          (await store.listQueue('h2')).map((q) => q.slot),
          ['h2'],
        );
        assert.equal((await store.countQueue('h1')).building, 1);
        assert.equal((await store.countQueue('h1')).discovered, 0);
        assert.equal((await store.countQueue()).discovered, 1);
      }),
    );

    test(
      "recovery takes back the daemon's own claims and lapsed ones, and leaves a live claim of another alone",
      withStore(async (store) => {
        const ids = [...(await releases(store, 'mariadb-10.11', '10.11.1', '10.11.2', '10.11.3')).values()];
        await store.enqueueReleases(S, ids);
        const soon = new Date(Date.now() + 60_000).toISOString();
        const past = new Date(Date.now() - 1000).toISOString();
        const take = (releaseId: number, claimant: string, until: string) =>
          store.claimQueued({ slot: S, releaseId, to: 'building', claimant, until });
        await take(ids[0]!, 'h1', soon);
        await take(ids[1]!, 'h2', soon);
        await take(ids[2]!, 'h3', past);
        const { rebuilt } = await store.recoverQueue(scope());
        assert.deepEqual(rebuilt.map((r) => [r.tag, r.state, r.claimedBy]).sort(), [
          ['mariadb-10.11.1', 'discovered', null],
          ['mariadb-10.11.3', 'discovered', null],
        ]);
        const held = await store.getQueued(S, ids[1]!);
        assert.deepEqual([held?.state, held?.claimedBy], ['building', 'h2']);
        // After h2's claim lapses, h1 takes it over too.
        const later = new Date(Date.now() + 120_000).toISOString();
        assert.deepEqual(
          (await store.recoverQueue(scope(later))).rebuilt.map((r) => r.tag),
          ['mariadb-10.11.2'],
        );
      }),
    );

    test(
      'a pre-fleet row of a release the slot has queued already stays where it is; the others move',
      withStore(async (store) => {
        const ids = await releases(store, 'mariadb-10.11', '10.11.8', '10.11.9');
        const [both, only] = [ids.get('10.11.8')!, ids.get('10.11.9')!];
        await store.enqueueReleases('', [both, only]);
        await store.enqueueReleases('h1', [both]);
        await store.recoverQueue(scope());
        assert.deepEqual(
          (await store.listQueue()).map((q) => [q.slot, q.releaseId]).sort(),
          [
            ['', both],
            ['h1', both],
            ['h1', only],
          ].sort(),
        );
      }),
    );

    test(
      "a queue from before fleets (slot '') joins the first slot that recovers it",
      withStore(async (store) => {
        const id = (await releases(store, 'mariadb-10.11', '10.11.9')).get('10.11.9')!;
        await store.enqueueReleases('', [id]);
        await store.moveQueued({ slot: '', releaseId: id, to: 'building' });
        const { rebuilt } = await store.recoverQueue(scope());
        assert.deepEqual(
          rebuilt.map((r) => [r.slot, r.state]),
          [['h1', 'discovered']],
        );
        assert.deepEqual(await store.listQueue(''), []);
        // Another slot finds nothing left to adopt.
        await store.recoverQueue({ slot: 'h2', claimant: 'h2', now: new Date().toISOString() });
        assert.deepEqual(
          (await store.listQueue()).map((q) => q.slot),
          ['h1'],
        );
      }),
    );

    test(
      'each host has its own daemon state; a host without one reads the pre-fleet row until it writes',
      withStore(async (store) => {
        await store.setDaemonState('', { phase: 'idle', lastPollAt: '2026-12-01T00:00:00.000Z', pid: 11 });
        assert.equal((await store.getDaemonState('h1')).lastPollAt, '2026-12-01T00:00:00.000Z');
        await store.setDaemonState('h1', { phase: 'building', pid: 22 });
        await store.setDaemonState('h2', { phase: 'benchmarking', pid: 33 });
        const states = await Promise.all(['h1', 'h2', ''].map((h) => store.getDaemonState(h)));
        assert.deepEqual(
          states.map((s) => [s.phase, s.pid, s.lastPollAt]),
          [
            ['building', 22, '2026-12-01T00:00:00.000Z'],
            ['benchmarking', 33, '2026-12-01T00:00:00.000Z'],
            ['idle', 11, '2026-12-01T00:00:00.000Z'],
          ],
        );
      }),
    );
  });
}
