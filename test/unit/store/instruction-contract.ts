import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstructionVerdict } from '../../../src/model/index.js';
import {
  DuplicateInstructionRunError,
  EventAlreadyOpenError,
  InvalidRecordError,
  SessionStateError,
  type InstructionCheckInput,
  type InstructionRunInput,
  type Store,
} from '../../../src/store/index.js';
import { checkInput, doneSession, releases, verdict } from './check-contract.js';
import { hostInput, sessionInput } from './store-inputs.js';

export function runInput(overrides: Partial<InstructionRunInput> = {}): InstructionRunInput {
  return {
    role: 'baseline',
    target: 'relaxed',
    buildKey: 'sha256:0123456789abcdef',
    test: 'point-query',
    threads: 1,
    repeat: 1,
    instructions: 84_011_678,
    queries: 2000,
    conditions: { lane: 1, counter: 'callgrind', counterVersion: 'valgrind-3.19.0', test: 'point-query' },
    conditionKey: 'c0ffee0123456789',
    seconds: 21.5,
    ...overrides,
  };
}

export function instructionVerdict(test: string, kind: InstructionVerdict['kind'], ratio: number): InstructionVerdict {
  const side = (median: number) => ({ perQuery: [median, median], median, spread: 0 });
  return {
    test,
    threads: 1,
    kind,
    ratio,
    low: ratio,
    high: ratio,
    threshold: 1.02,
    baseline: side(42_000),
    candidate: side(42_000 * ratio),
  };
}

const drift = (ratio: number, baselineReleaseId: number): InstructionCheckInput['openEvents'][number] => ({
  test: 'point-query',
  threads: 1,
  ratio,
  kind: 'drift',
  baselineReleaseId,
});

/**
 * Every backend keeps the instructions lane's runs with their conditions, one function table per side and test, a
 * session's lane, and a check's verdicts and events of the lane, which triage closes and acknowledges as it does the
 * QPS lane's.
 */
export function instructionContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend} store: instructions lane`, () => {
    test('runs read back as stored; a second run of one repeat and a run of a done session are refused', async () => {
      const store = await open();
      try {
        const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        const first = runInput();
        const runId = await store.addInstructionRun(id, first);
        await store.addInstructionRun(id, runInput({ role: 'candidate', instructions: 84_011_682 }));
        const [read, second] = await store.instructionRuns(id);
        assert.ok(read !== undefined && second !== undefined);
        const { id: readId, sessionId, createdAt, ...rest } = read;
        assert.deepEqual([readId, sessionId], [runId, id]);
        assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T/);
        assert.deepEqual(rest, first);
        assert.equal(second.instructions, 84_011_682);
        await assert.rejects(store.addInstructionRun(id, runInput()), DuplicateInstructionRunError);
        await store.finishSession(id);
        await assert.rejects(store.addInstructionRun(id, runInput({ repeat: 2 })), SessionStateError);
      } finally {
        await store.close();
      }
    });

    test('a run with no query, a fractional count or an unknown side is refused, naming the field', async () => {
      const store = await open();
      try {
        const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        for (const [bad, field] of [
          [{ queries: 0 }, 'queries'],
          [{ instructions: 1.5 }, 'instructions'],
          [{ role: 'third' as 'baseline' }, 'role'],
        ] as const)
          await assert.rejects(
            store.addInstructionRun(id, runInput(bad)),
            (e: unknown) => e instanceof InvalidRecordError && e.field === field,
          );
        assert.deepEqual(await store.instructionRuns(id), []);
      } finally {
        await store.close();
      }
    });

    test("one binary's figure under one condition key is found across done sessions only", async () => {
      const store = await open();
      try {
        const hostId = await store.upsertHost(hostInput());
        const done = await store.createSession(sessionInput(hostId));
        await store.addInstructionRun(done, runInput());
        await store.addInstructionRun(done, runInput({ repeat: 2, conditionKey: 'other' }));
        await store.addInstructionRun(done, runInput({ role: 'candidate', buildKey: 'key-c' }));
        await store.finishSession(done);
        const running = await store.createSession(sessionInput(hostId));
        await store.addInstructionRun(running, runInput());
        const found = await store.findInstructionRuns({
          buildKey: 'sha256:0123456789abcdef',
          conditionKey: 'c0ffee0123456789',
        });
        assert.deepEqual(
          found.map((r) => [r.sessionId, r.role, r.repeat]),
          [[done, 'baseline', 1]],
        );
      } finally {
        await store.close();
      }
    });

    test("a side's function table is replaced by a second one; the lane's outcome likewise", async () => {
      const store = await open();
      try {
        const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        const table = [
          {
            name: 'dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)',
            object: 'mariadbd',
            inclusive: 42_005.5,
            exclusive: 12,
          },
          { name: '<unnamed & "quoted">', object: 'libc.so.6', inclusive: 10, exclusive: 10 },
        ];
        await store.addInstructionFunctions(id, { role: 'candidate', test: 'point-query', threads: 1, functions: [] });
        await store.addInstructionFunctions(id, {
          role: 'candidate',
          test: 'point-query',
          threads: 1,
          functions: table,
        });
        assert.deepEqual(await store.instructionFunctions(id), [
          { sessionId: id, role: 'candidate', test: 'point-query', threads: 1, functions: table },
        ]);
        assert.equal(await store.instructionLane(id), undefined);
        await store.recordInstructionLane(id, {
          state: 'skipped',
          reason: 'valgrind is not installed',
          runs: 0,
          seconds: 0,
        });
        await store.recordInstructionLane(id, {
          state: 'done',
          counter: 'callgrind',
          counterVersion: 'valgrind-3.19.0',
          runs: 12,
          seconds: 250.5,
        });
        assert.deepEqual(await store.instructionLane(id), {
          sessionId: id,
          state: 'done',
          counter: 'callgrind',
          counterVersion: 'valgrind-3.19.0',
          runs: 12,
          seconds: 250.5,
        });
      } finally {
        await store.close();
      }
    });

    test('a check keeps the lane verdicts; a regression among them keeps the release from last good', async () => {
      const store = await open();
      try {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.4');
        const grown = await doneSession(store, '10.11.2', '10.11.3', { b: 1000, c: 1000 });
        const qpsOk = [verdict('update-index', 'ok', 1), verdict('point-query', 'ok', 1)];
        const verdicts = [
          instructionVerdict('point-query', 'regression', 1.05),
          instructionVerdict('update-index', 'ok', 1),
        ];
        const check = await store.recordCheck(
          checkInput(grown, ids.get('10.11.3')!, ids.get('10.11.2')!, {
            verdicts: qpsOk,
            instructions: {
              verdicts,
              openEvents: [
                {
                  test: 'point-query',
                  threads: 1,
                  ratio: 1.05,
                  kind: 'regression',
                  baselineReleaseId: ids.get('10.11.2')!,
                },
              ],
              fixedEventIds: [],
            },
          }),
        );
        assert.equal(check.conclusive, false, 'an instructions regression is not last good');
        assert.deepEqual(
          (await store.instructionVerdictsOfSession(grown)).map(({ sessionId, ...v }) => [sessionId, v]),
          verdicts.map((v) => [grown, v]),
        );
        const [event] = await store.listInstructionEvents({ upstream: 'mariadb-10.11', state: 'open' });
        assert.deepEqual(
          [event?.test, event?.kind, event?.ratio, event?.releaseId, event?.acked],
          ['point-query', 'regression', 1.05, ids.get('10.11.3'), false],
        );
        assert.deepEqual(await store.listEvents({ state: 'open' }), [], "the QPS lane's events are apart");
        const fine = await doneSession(store, '10.11.2', '10.11.4', { b: 1000, c: 1000 });
        const recovered = await store.recordCheck(
          checkInput(fine, ids.get('10.11.4')!, ids.get('10.11.2')!, {
            verdicts: qpsOk,
            instructions: {
              verdicts: [instructionVerdict('point-query', 'ok', 1)],
              openEvents: [drift(1.03, ids.get('10.11.2')!)],
              fixedEventIds: [event!.id],
            },
          }),
        );
        assert.equal(recovered.conclusive, true);
        const all = await store.listInstructionEvents({});
        assert.deepEqual(
          all.map((e) => [e.kind, e.state, e.closedByReleaseId]),
          [
            ['regression', 'fixed', ids.get('10.11.4')],
            ['drift', 'open', null],
          ],
          'fixed before opened: one open event per test',
        );
        const fixedTriage = (await store.listTriage(ids.get('10.11.4'))).map((t) => [t.action, t.test, t.who]);
        assert.deepEqual(fixedTriage, [['fixed', 'point-query', 'qpswatch']]);
      } finally {
        await store.close();
      }
    });

    test('ack, accept and invalid act on the lane events as on the QPS lane ones', async () => {
      const store = await open();
      try {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.4');
        const record = async (version: string, test: string) => {
          const session = await doneSession(store, '10.11.2', version, { b: 1000, c: 1000 });
          await store.recordCheck(
            checkInput(session, ids.get(version)!, ids.get('10.11.2')!, {
              verdicts: [],
              instructions: {
                verdicts: [instructionVerdict(test, 'regression', 1.1)],
                openEvents: [
                  { test, threads: 1, ratio: 1.1, kind: 'regression', baselineReleaseId: ids.get('10.11.2')! },
                ],
                fixedEventIds: [],
              },
            }),
          );
        };
        await record('10.11.3', 'point-query');
        await record('10.11.4', 'update-index');
        const acked = await store.triage({
          releaseId: ids.get('10.11.3')!,
          action: 'ack',
          who: 'dba',
          reason: 'known',
        });
        assert.deepEqual(
          acked.instructionEvents.map((e) => [e.test, e.acked, e.state]),
          [['point-query', true, 'open']],
        );
        const invalid = await store.triage({
          releaseId: ids.get('10.11.4')!,
          action: 'invalid',
          who: 'dba',
          reason: 'noisy',
        });
        assert.deepEqual(
          invalid.instructionEvents.map((e) => [e.test, e.state]),
          [['update-index', 'invalid']],
        );
        const accepted = await store.triage({
          releaseId: ids.get('10.11.4')!,
          action: 'accept',
          who: 'dba',
          reason: 'ok',
        });
        assert.deepEqual(
          accepted.instructionEvents.map((e) => [e.test, e.state, e.closedByReleaseId]),
          [['point-query', 'accepted', ids.get('10.11.4')]],
        );
        assert.deepEqual(await store.listInstructionEvents({ state: 'open' }), []);
      } finally {
        await store.close();
      }
    });

    test('a second open event for one test and upstream fails the check whole', async () => {
      const store = await open();
      try {
        const ids = await releases(store, '10.11.2', '10.11.3');
        const session = await doneSession(store, '10.11.2', '10.11.3', { b: 1000, c: 1000 });
        const base = ids.get('10.11.2')!;
        await assert.rejects(
          store.recordCheck(
            checkInput(session, ids.get('10.11.3')!, base, {
              verdicts: [],
              instructions: { verdicts: [], openEvents: [drift(1.1, base), drift(1.2, base)], fixedEventIds: [] },
            }),
          ),
          EventAlreadyOpenError,
        );
        assert.equal(await store.getCheck(session), undefined);
        assert.deepEqual(await store.listInstructionEvents({}), []);
      } finally {
        await store.close();
      }
    });
  });
}
