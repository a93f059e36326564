import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BuildNotFoundError,
  DuplicateSampleError,
  HostNotFoundError,
  ReleaseNotFoundError,
  InvalidRecordError,
  SessionNotFoundError,
  SessionStateError,
  StoreClosedError,
  type SampleInput,
  type Store,
} from '../../../src/store/index.js';
import { hostInput, sampleInput, sessionInput } from './store-inputs.js';

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The behaviour every Store backend must show. `open` returns a new, empty store each time; each test closes it.
 */
export function storeContract(name: string, open: () => Promise<Store>): void {
  async function withStore(body: (store: Store) => Promise<void>): Promise<void> {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  }

  async function runningSession(store: Store, pid = 4242): Promise<number> {
    const hostId = await store.upsertHost(hostInput());
    return store.createSession(sessionInput(hostId, { pid }));
  }

  describe(`store contract: ${name}`, () => {
    describe('hosts', () => {
      test('upsertHost keeps one id per fingerprint id and refreshes the fingerprint', () =>
        withStore(async (store) => {
          const first = await store.upsertHost(hostInput());
          const again = await store.upsertHost(
            hostInput({ fingerprint: { cpuModel: 'AMD EPYC 7B13', kernel: '6.1.1' } }),
          );
          const other = await store.upsertHost(hostInput({ fingerprintId: 'fp-other' }));
          assert.equal(again, first);
          assert.notEqual(other, first);
          const host = await store.getHost(first);
          assert.deepEqual(host?.fingerprint, { cpuModel: 'AMD EPYC 7B13', kernel: '6.1.1' });
          assert.equal(host?.fingerprintId, 'fp-4c-16g-nvme');
          assert.match(host?.firstSeenAt ?? '', isoTimestamp);
          assert.ok((host?.lastSeenAt ?? '') >= (host?.firstSeenAt ?? ''));
        }));

      test('getHost of an unknown id is undefined', () =>
        withStore(async (store) => {
          assert.equal(await store.getHost(999), undefined);
        }));

      test('a fingerprint holding NaN is refused with the path of the value', () =>
        withStore(async (store) => {
          await assert.rejects(
            store.upsertHost(hostInput({ fingerprint: { cpu: { mhz: Number.NaN } } })),
            (error: unknown) => error instanceof InvalidRecordError && error.field === 'fingerprint.cpu.mhz',
          );
          await assert.rejects(
            store.upsertHost(hostInput({ fingerprintId: '' })),
            (error: unknown) => error instanceof InvalidRecordError && error.field === 'fingerprintId',
          );
        }));
    });

    describe('sessions', () => {
      test('createSession stores both targets and starts running', () =>
        withStore(async (store) => {
          const hostId = await store.upsertHost(hostInput());
          const input = sessionInput(hostId);
          const id = await store.createSession(input);
          const session = await store.getSession(id);
          assert.ok(session);
          assert.equal(session.state, 'running');
          assert.equal(session.kind, 'compare');
          assert.equal(session.hostId, hostId);
          assert.deepEqual(session.baseline, input.baseline);
          assert.deepEqual(session.candidate, input.candidate);
          assert.deepEqual(session.settings, input.settings);
          assert.equal(session.suite, 'quick');
          assert.equal(session.rounds, 2);
          assert.equal(session.pid, 4242);
          assert.equal(session.error, null);
          assert.equal(session.endedAt, null);
          assert.match(session.startedAt, isoTimestamp);
        }));

      test('createSession for an unknown host is refused', () =>
        withStore(async (store) => {
          await assert.rejects(
            store.createSession(sessionInput(77)),
            (error: unknown) => error instanceof HostNotFoundError && error.hostId === 77,
          );
          assert.deepEqual(await store.listSessions({ limit: 10 }), []);
        }));

      test('createSession refuses bad fields, naming them', () =>
        withStore(async (store) => {
          const hostId = await store.upsertHost(hostInput());
          const cases: [Parameters<typeof sessionInput>[1], string][] = [
            [{ rounds: 0 }, 'rounds'],
            [{ pid: 1.5 }, 'pid'],
            [{ suite: '' }, 'suite'],
            [{ settings: { threshold: Number.POSITIVE_INFINITY } }, 'settings.threshold'],
          ];
          for (const [overrides, field] of cases) {
            await assert.rejects(
              store.createSession(sessionInput(hostId, overrides)),
              (error: unknown) => error instanceof InvalidRecordError && error.field === field,
              field,
            );
          }
          const badTarget = { ...sessionInput(hostId).candidate, name: '' };
          await assert.rejects(
            store.createSession(sessionInput(hostId, { candidate: badTarget })),
            (error: unknown) => error instanceof InvalidRecordError && error.field === 'candidate.name',
          );
          assert.deepEqual(await store.listSessions({ limit: 10 }), []);
        }));

      test('finishSession ends a running session once', () =>
        withStore(async (store) => {
          const id = await runningSession(store);
          await store.finishSession(id);
          const session = await store.getSession(id);
          assert.equal(session?.state, 'done');
          assert.match(session?.endedAt ?? '', isoTimestamp);
          await assert.rejects(
            store.finishSession(id),
            (error: unknown) => error instanceof SessionStateError && error.state === 'done' && error.sessionId === id,
          );
        }));

      test('failSession keeps the reason; an ended session cannot fail', () =>
        withStore(async (store) => {
          const id = await runningSession(store);
          await store.failSession(id, 'mariadbd exited: [ERROR] unknown variable innodb_foo=1');
          const session = await store.getSession(id);
          assert.equal(session?.state, 'failed');
          assert.equal(session?.error, 'mariadbd exited: [ERROR] unknown variable innodb_foo=1');
          assert.match(session?.endedAt ?? '', isoTimestamp);
          await assert.rejects(store.failSession(id, 'again'), SessionStateError);
          await assert.rejects(store.failSession(await runningSession(store), ''), InvalidRecordError);
        }));

      test('interruptSession keeps the reason; its samples never count', () =>
        withStore(async (store) => {
          const id = await runningSession(store);
          await store.addSample(id, sampleInput());
          await store.interruptSession(id, 'stopped by SIGTERM');
          const session = await store.getSession(id);
          assert.equal(session?.state, 'interrupted');
          assert.equal(session?.error, 'stopped by SIGTERM');
          assert.equal((await store.samplesForSession(id)).length, 1);
          assert.deepEqual(await store.completedSamples(id), []);
          await assert.rejects(store.interruptSession(id, 'again'), SessionStateError);
        }));

      test('ending an unknown session says so', () =>
        withStore(async (store) => {
          await assert.rejects(
            store.finishSession(12345),
            (error: unknown) => error instanceof SessionNotFoundError && error.sessionId === 12345,
          );
          await assert.rejects(store.failSession(12345, 'x'), SessionNotFoundError);
          assert.equal(await store.getSession(12345), undefined);
        }));

      test('listSessions gives the newest first, limited and filtered by state', () =>
        withStore(async (store) => {
          const a = await runningSession(store);
          const b = await runningSession(store);
          const c = await runningSession(store);
          await store.finishSession(a);
          await store.finishSession(c);
          assert.deepEqual(
            (await store.listSessions({ limit: 10 })).map((s) => s.id),
            [c, b, a],
          );
          assert.deepEqual(
            (await store.listSessions({ limit: 2 })).map((s) => s.id),
            [c, b],
          );
          assert.deepEqual(
            (await store.listSessions({ limit: 10, state: 'done' })).map((s) => s.id),
            [c, a],
          );
          assert.deepEqual(
            (await store.listSessions({ limit: 10, state: 'running' })).map((s) => s.id),
            [b],
          );
          assert.deepEqual(await store.listSessions({ limit: 10, state: 'failed' }), []);
          await assert.rejects(
            store.listSessions({ limit: 0 }),
            (error: unknown) => error instanceof InvalidRecordError && error.field === 'limit',
          );
        }));

      test('recoverInterrupted marks only running sessions whose process is gone', () =>
        withStore(async (store) => {
          const dead = await runningSession(store, 111);
          const alive = await runningSession(store, 222);
          const finished = await runningSession(store, 333);
          await store.finishSession(finished);
          const asked: number[] = [];
          const marked = await store.recoverInterrupted('this-host', (pid) => {
            asked.push(pid);
            return pid === 222;
          });
          assert.equal(marked, 1);
          assert.deepEqual(asked.sort(), [111, 222]);
          const interrupted = await store.getSession(dead);
          assert.equal(interrupted?.state, 'interrupted');
          assert.match(interrupted?.endedAt ?? '', isoTimestamp);
          assert.equal((await store.getSession(alive))?.state, 'running');
          assert.equal((await store.getSession(finished))?.state, 'done');
          assert.equal(await store.recoverInterrupted('this-host', () => true), 0);
          assert.equal(await store.recoverInterrupted('this-host', (pid) => pid !== 222), 1);
          await assert.rejects(store.finishSession(dead), SessionStateError);
        }));

      test("recoverInterrupted leaves another host's sessions alone: a pid says nothing of another machine", () =>
        withStore(async (store) => {
          const hostId = await store.upsertHost(hostInput());
          const settings = (runner?: string) => ({ ...(runner !== undefined ? { runner } : {}), design: 'paired' });
          const mine = await store.createSession({ ...sessionInput(hostId, { pid: 601 }), settings: settings('a') });
          const theirs = await store.createSession({ ...sessionInput(hostId, { pid: 602 }), settings: settings('b') });
          const older = await store.createSession({ ...sessionInput(hostId, { pid: 603 }), settings: settings() });
          assert.equal(await store.recoverInterrupted('a', () => false), 2);
          assert.equal((await store.getSession(mine))?.state, 'interrupted');
          assert.equal((await store.getSession(theirs))?.state, 'running');
          assert.equal((await store.getSession(older))?.state, 'interrupted');
          assert.equal(await store.recoverInterrupted('b', () => false), 1);
          assert.equal((await store.getSession(theirs))?.state, 'interrupted');
        }));

      test('a session keeps its process start time, so a reused pid is told apart; older rows have none', () =>
        withStore(async (store) => {
          const hostId = await store.upsertHost(hostInput());
          const withTicks = await store.createSession(sessionInput(hostId, { pid: 444, pidStartTicks: 9001 }));
          const without = await store.createSession(sessionInput(hostId, { pid: 555 }));
          assert.equal((await store.getSession(withTicks))?.pidStartTicks, 9001);
          assert.equal((await store.getSession(without))?.pidStartTicks, null);
          const asked: Array<[number, number | undefined]> = [];
          // pid 444 is alive, but started at another time: another process has the pid now.
          const marked = await store.recoverInterrupted('this-host', (pid, startTicks) => {
            asked.push([pid, startTicks]);
            return startTicks === undefined || startTicks !== 9001;
          });
          assert.equal(marked, 1);
          assert.deepEqual(asked.sort(), [
            [444, 9001],
            [555, undefined],
          ]);
          assert.equal((await store.getSession(withTicks))?.state, 'interrupted');
          assert.equal((await store.getSession(without))?.state, 'running');
        }));
    });

    describe('samples', () => {
      test('addSample stores every field, the host usage and the db counters', () =>
        withStore(async (store) => {
          const sessionId = await runningSession(store);
          const input = sampleInput();
          const id = await store.addSample(sessionId, input);
          const [sample, ...rest] = await store.samplesForSession(sessionId);
          assert.equal(rest.length, 0);
          assert.ok(sample);
          const { id: gotId, sessionId: gotSession, createdAt, ...fields } = sample;
          assert.equal(gotId, id);
          assert.equal(gotSession, sessionId);
          assert.match(createdAt, isoTimestamp);
          assert.deepEqual(fields, input);
        }));

      test('a sample with no db counters reads back with none', () =>
        withStore(async (store) => {
          const sessionId = await runningSession(store);
          await store.addSample(sessionId, sampleInput({ dbCounters: {} }));
          const [sample] = await store.samplesForSession(sessionId);
          assert.deepEqual(sample?.dbCounters, {});
        }));

      test('samplesForSession returns one session only, in the order written', () =>
        withStore(async (store) => {
          const first = await runningSession(store);
          const second = await runningSession(store);
          const written = [
            sampleInput({ round: 1, role: 'baseline', qps: 100 }),
            sampleInput({ round: 1, role: 'candidate', targetName: 'mariadb-10.11.10', qps: 90 }),
            sampleInput({ round: 2, role: 'candidate', targetName: 'mariadb-10.11.10', qps: 91 }),
          ];
          for (const sample of written) await store.addSample(first, sample);
          await store.addSample(second, sampleInput({ qps: 5 }));
          const got = await store.samplesForSession(first);
          assert.deepEqual(
            got.map((s) => [s.round, s.role, s.qps]),
            [
              [1, 'baseline', 100],
              [1, 'candidate', 90],
              [2, 'candidate', 91],
            ],
          );
          assert.deepEqual(
            (await store.samplesForSession(second)).map((s) => s.qps),
            [5],
          );
        }));

      test(
        'sampleFigures gives each side and test (in that order) its figures in ' +
          'the order written, as samplesForSession has them',
        () =>
          withStore(async (store) => {
            const id = await runningSession(store);
            const written = [
              sampleInput({ round: 1, role: 'baseline', qps: 100, latencyP95Ms: 3 }),
              sampleInput({ round: 1, role: 'candidate', targetName: 'mariadb-10.11.10', qps: 90, cpuPerOp: 0.5 }),
              sampleInput({ round: 2, role: 'baseline', qps: 102, latencyP95Ms: 4 }),
              sampleInput({ round: 1, role: 'baseline', test: 'other', qps: 7 }),
            ];
            for (const sample of written) await store.addSample(id, sample);
            const got = await store.sampleFigures(id);
            assert.deepEqual(
              got.map((t) => [t.role, t.test, [...t.figures.qps]]),
              [
                ['baseline', written[0]!.test, [100, 102]],
                ['baseline', 'other', [7]],
                ['candidate', written[1]!.test, [90]],
              ],
            );
            const samples = await store.samplesForSession(id);
            assert.deepEqual([...got[0]!.figures.latencyP95Ms], [3, 4]);
            assert.deepEqual([...got[2]!.figures.cpuPerOp], [samples[1]!.cpuPerOp]);
            assert.deepEqual([...got[2]!.figures.writeKBPerOp], [samples[1]!.writeKBPerOp]);
            assert.deepEqual(await store.sampleFigures(await runningSession(store)), []);
          }),
      );

      const badSamples: [string, Partial<SampleInput>, string][] = [
        ['NaN qps', { qps: Number.NaN }, 'qps'],
        ['infinite qps', { qps: Number.POSITIVE_INFINITY }, 'qps'],
        ['negative qps', { qps: -1 }, 'qps'],
        ['NaN tps', { tps: Number.NaN }, 'tps'],
        ['zero seconds', { seconds: 0 }, 'seconds'],
        ['fractional threads', { threads: 1.5 }, 'threads'],
        ['negative p95', { latencyP95Ms: -0.1 }, 'latencyP95Ms'],
        ['negative errors', { errors: -1 }, 'errors'],
        ['infinite cpu/o', { cpuPerOp: Number.POSITIVE_INFINITY }, 'cpuPerOp'],
        ['unknown role', { role: 'other' as 'baseline' }, 'role'],
        ['empty test name', { test: '' }, 'test'],
        ['NaN in the host usage', { host: { cpu: { user: Number.NaN } } }, 'host.cpu.user'],
        ['NaN in a host usage list', { host: { disks: [{ reads: 1 }, { reads: Number.NaN }] } }, 'host.disks[1].reads'],
        [
          'infinite counter per op',
          { dbCounters: { Innodb_rows_read: { delta: 5, perOp: Number.POSITIVE_INFINITY } } },
          'dbCounters.Innodb_rows_read.perOp',
        ],
      ];
      for (const [label, overrides, field] of badSamples) {
        test(`addSample refuses ${label}, naming "${field}", and stores nothing`, () =>
          withStore(async (store) => {
            const sessionId = await runningSession(store);
            await assert.rejects(store.addSample(sessionId, sampleInput(overrides)), (error: unknown) => {
              assert.ok(error instanceof InvalidRecordError, String(error));
              assert.equal(error.record, 'sample');
              assert.equal(error.field, field);
              assert.match(error.message, new RegExp(`"${field.replace(/[.[\]]/g, '\\$&')}"`));
              return true;
            });
            assert.deepEqual(await store.samplesForSession(sessionId), []);
          }));
      }

      test('addSample refuses a session that is not running', () =>
        withStore(async (store) => {
          const done = await runningSession(store);
          await store.finishSession(done);
          await assert.rejects(
            store.addSample(done, sampleInput()),
            (error: unknown) => error instanceof SessionStateError && error.state === 'done',
          );
          const interrupted = await runningSession(store, 999_999);
          await store.recoverInterrupted('this-host', () => false);
          await assert.rejects(
            store.addSample(interrupted, sampleInput()),
            (error: unknown) => error instanceof SessionStateError && error.state === 'interrupted',
          );
          await assert.rejects(store.addSample(424_242, sampleInput()), SessionNotFoundError);
          assert.deepEqual(await store.samplesForSession(done), []);
          assert.deepEqual(await store.samplesForSession(interrupted), []);
        }));

      test('the same test, round, side and threads cannot be stored twice', () =>
        withStore(async (store) => {
          const sessionId = await runningSession(store);
          await store.addSample(sessionId, sampleInput({ qps: 100 }));
          await assert.rejects(store.addSample(sessionId, sampleInput({ qps: 200 })), (error: unknown) => {
            assert.ok(error instanceof DuplicateSampleError, String(error));
            assert.deepEqual(error.key, { round: 1, role: 'baseline', test: 'oltp_read_only', threads: 4 });
            return true;
          });
          await store.addSample(sessionId, sampleInput({ threads: 8, qps: 300 }));
          assert.deepEqual(
            (await store.samplesForSession(sessionId)).map((s) => s.qps),
            [100, 300],
          );
        }));

      test('completedSamples counts only a done session', () =>
        withStore(async (store) => {
          const ids = { done: 0, running: 0, interrupted: 0, failed: 0 };
          for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
            ids[key] = await runningSession(store, key === 'interrupted' ? 1_000_001 : 4242);
            await store.addSample(ids[key], sampleInput({ round: 1 }));
            await store.addSample(ids[key], sampleInput({ round: 2 }));
          }
          await store.finishSession(ids.done);
          await store.failSession(ids.failed, 'server crashed');
          await store.recoverInterrupted('this-host', (pid) => pid !== 1_000_001);
          assert.equal((await store.completedSamples(ids.done)).length, 2);
          for (const id of [ids.running, ids.interrupted, ids.failed]) {
            assert.deepEqual(await store.completedSamples(id), []);
            assert.equal((await store.samplesForSession(id)).length, 2);
          }
          await assert.rejects(store.completedSamples(424_242), SessionNotFoundError);
          await assert.rejects(store.samplesForSession(424_242), SessionNotFoundError);
        }));
    });

    describe('releases and builds', () => {
      const sha = (c: string): string => c.repeat(40);
      const release = (tag: string, version: string, commit = sha('a')) => ({
        upstream: 'mariadb-10.11',
        flavor: 'mariadb',
        tag,
        commit,
        version,
        versionKey: version
          .split('.')
          .map((p) => p.padStart(3, '0'))
          .join('.'),
      });

      test('recordReleases adds new tags once and lists them in version order, not text order', () =>
        withStore(async (store) => {
          const first = await store.recordReleases([
            release('mariadb-10.11.10', '10.11.10'),
            release('mariadb-10.11.9', '10.11.9'),
          ]);
          assert.deepEqual(
            first.added.map((r) => r.tag),
            ['mariadb-10.11.10', 'mariadb-10.11.9'],
          );
          const again = await store.recordReleases([
            release('mariadb-10.11.9', '10.11.9'),
            release('mariadb-10.11.11', '10.11.11'),
          ]);
          assert.deepEqual(
            again.added.map((r) => r.tag),
            ['mariadb-10.11.11'],
          );
          assert.deepEqual(again.moved, []);
          assert.deepEqual(
            (await store.listReleases('mariadb-10.11')).map((r) => r.version),
            ['10.11.9', '10.11.10', '10.11.11'],
          );
          assert.deepEqual(await store.listReleases('other'), []);
        }));

      test('a tag that moved to another commit is recorded as moved, keeping the old commit', () =>
        withStore(async (store) => {
          await store.recordReleases([release('mariadb-10.11.9', '10.11.9', sha('a'))]);
          const result = await store.recordReleases([release('mariadb-10.11.9', '10.11.9', sha('b'))]);
          assert.equal(result.moved.length, 1);
          assert.equal(result.moved[0]!.fromCommit, sha('a'));
          const [stored] = await store.findReleasesByTag('mariadb-10.11.9');
          assert.equal(stored!.commit, sha('b'));
          assert.equal(stored!.movedFrom, sha('a'));
          assert.match(stored!.movedAt ?? '', isoTimestamp);
        }));

      test('a release with a bad commit id is refused, naming the field, and nothing is stored', () =>
        withStore(async (store) => {
          await assert.rejects(
            store.recordReleases([
              release('mariadb-10.11.1', '10.11.1'),
              release('mariadb-10.11.2', '10.11.2', 'HEAD'),
            ]),
            (err: unknown) => err instanceof InvalidRecordError && err.field === 'commit',
          );
          assert.deepEqual(await store.listReleases(), []);
        }));

      test('builds: start, finish, fail with the log lines, replace a failed one on retry', () =>
        withStore(async (store) => {
          const { added } = await store.recordReleases([release('mariadb-10.11.9', '10.11.9')]);
          const releaseId = added[0]!.id;
          const input = {
            releaseId,
            buildKey: 'k1',
            profile: 'demo',
            compiler: 'cc 12',
            installDir: '/s/builds/k1/install',
            logFile: '/s/builds/k1/build.log',
            pid: 42,
          };
          const started = await store.startBuild(input);
          assert.equal(started.state, 'building');
          const failed = await store.failBuild(started.id, ['main.c:3: error: expected ;']);
          assert.equal(failed.state, 'failed');
          assert.deepEqual(failed.failureLines, ['main.c:3: error: expected ;']);
          assert.ok((failed.durationSeconds ?? -1) >= 0);
          await assert.rejects(store.failBuild(started.id, []), BuildNotFoundError);
          const retried = await store.startBuild(input);
          assert.equal((await store.finishBuild(retried.id)).state, 'built');
          assert.equal((await store.getBuild('k1'))?.state, 'built');
          assert.equal((await store.buildsOfRelease(releaseId)).length, 1);
          assert.equal((await store.listBuilds()).length, 1);
          await assert.rejects(store.startBuild({ ...input, releaseId: 999 }), ReleaseNotFoundError);
        }));
    });

    describe('close', () => {
      test('close is idempotent and later calls are refused', async () => {
        const store = await open();
        await store.close();
        await store.close();
        await assert.rejects(store.upsertHost(hostInput()), StoreClosedError);
        await assert.rejects(store.listSessions({ limit: 1 }), StoreClosedError);
        await assert.rejects(store.samplesForSession(1), StoreClosedError);
        await assert.rejects(
          store.recoverInterrupted('this-host', () => true),
          StoreClosedError,
        );
      });
    });
  });
}
