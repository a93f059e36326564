import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import {
  hashOf,
  laneAnnouncement,
  laneTests,
  runInstructionLane,
  type CountRequest,
  type CountResult,
  type LanePlan,
  type TargetInstance,
} from '../../../src/session/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import type { Suite, SuiteTest } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { hostInput, sessionInput } from '../store/store-inputs.js';

/**
 * The lane's orchestration on a real store, its counted runs fakes given through the context (`count`): which runs
 * it asks for and in what order, what it stores, and how it ends when a run fails or the session is stopped.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-lane-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const script = join(dir, 'script.lua');
writeFileSync(script, '-- a script\n');

const load = { tables: 1, tableSize: 1000, script: 'oltp_common', scriptPath: script, args: {}, database: 'sbtest' };
const testOf = (name: string, threads: number[] = [1]): SuiteTest =>
  ({ name, script: name, scriptPath: script, args: {}, seconds: 1, threads, load }) as SuiteTest;
const suite = {
  name: 'quick',
  tests: [testOf('update-index'), testOf('point-query'), testOf('scan', [4])],
} as unknown as Suite;

const instance = (name: string): TargetInstance =>
  ({
    target: {
      name,
      profile: { name: 'relaxed', settings: { a: 1 }, overrides: [] },
      ref: { description: { buildKey: `key-${name}` } },
      binaries: { mysqld: '/usr/sbin/mariadbd' },
    },
  }) as unknown as TargetInstance;
const instances = { baseline: instance('b'), candidate: instance('c') };

const plan: LanePlan = {
  counter: { kind: 'callgrind', program: '/usr/bin/valgrind', version: 'valgrind-3.19.0' },
  tests: laneTests(suite),
  settings: {
    counter: 'callgrind',
    repeats: 3,
    events: 2000,
    warmupEvents: 500,
    verdicts: { threshold: 1.02, testThresholds: {} },
  },
  sides: ['baseline', 'candidate'],
};

/** A run of `instructions` over 2000 queries, with a function table whose sizes follow it. */
function counted(instructions: number): CountResult {
  return {
    instructions,
    queries: 2000,
    seconds: 20,
    functions: [
      { name: 'dispatch_command', object: 'mariadbd', self: 1000, inclusive: instructions },
      { name: 'do_command', object: 'mariadbd', self: 0, inclusive: instructions },
    ],
  };
}

let store: Store;
let hostId = 0;
before(async () => {
  store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
  hostId = await store.upsertHost(hostInput());
});
after(() => store.close());

describe('runInstructionLane', () => {
  test('counts each 1-thread test repeat by repeat on both sides, stores every run and the median tables', async () => {
    const sessionId = await store.createSession(sessionInput(hostId));
    const asked: string[] = [];
    let n = 0;
    const outcome = await runInstructionLane(suite, instances, plan, {
      store,
      log: silentLog,
      signal: new AbortController().signal,
      sessionId,
      cpuModel: 'AMD EPYC',
      count: async (request: CountRequest) => {
        asked.push(`${request.test.name} ${request.instance.target.name} ${request.label}`);
        // The candidate's middle repeat is its median: 84,000,000 + 0, 5, 2 thousand.
        return counted(84_000_000 + [0, 5000, 2000][n++ % 3]! * (request.instance.target.name === 'c' ? 1 : 0));
      },
    });
    assert.deepEqual(
      asked,
      [
        'update-index b 1-1',
        'update-index c 1-1',
        'update-index b 1-2',
        'update-index c 1-2',
        'update-index b 1-3',
        'update-index c 1-3',
        'point-query b 2-1',
        'point-query c 2-1',
        'point-query b 2-2',
        'point-query c 2-2',
        'point-query b 2-3',
        'point-query c 2-3',
      ],
      'the 1-thread tests only, every repeat on both sides before the next',
    );
    assert.deepEqual([outcome.state, outcome.runs, outcome.counter], ['done', 12, 'callgrind']);
    const runs = await store.instructionRuns(sessionId);
    assert.equal(runs.length, 12);
    const [first] = runs;
    assert.deepEqual([first?.buildKey, first?.queries, first?.conditions['suite']], ['key-b', 2000, 'quick']);
    assert.equal(
      (first?.conditions['load'] as { seed?: number } | undefined)?.seed,
      1,
      'the load is from a fixed seed',
    );
    assert.equal(
      new Set(runs.filter((r) => r.test === 'point-query').map((r) => r.conditionKey)).size,
      1,
      'both sides of a test share its conditions',
    );
    const tables = await store.instructionFunctions(sessionId);
    assert.equal(tables.length, 4);
    assert.deepEqual(
      tables.map((t) => [t.role, t.test, t.functions.map((f) => f.name)]),
      [
        ['baseline', 'point-query', ['dispatch_command']],
        ['candidate', 'point-query', ['dispatch_command']],
        ['baseline', 'update-index', ['dispatch_command']],
        ['candidate', 'update-index', ['dispatch_command']],
      ],
      "per test and side, without the dispatcher's callers",
    );
    assert.deepEqual((await store.instructionLane(sessionId))?.state, 'done');
  });

  test("a bisection step's plan counts the candidate alone, once per test", async () => {
    const sessionId = await store.createSession(sessionInput(hostId));
    const asked: string[] = [];
    const one: LanePlan = { ...plan, settings: { ...plan.settings, repeats: 1 }, sides: ['candidate'] };
    const outcome = await runInstructionLane(suite, instances, one, {
      store,
      log: silentLog,
      signal: new AbortController().signal,
      sessionId,
      cpuModel: 'AMD EPYC',
      count: async (request: CountRequest) => {
        asked.push(`${request.test.name} ${request.instance.target.name} ${request.label}`);
        return counted(84_000_000);
      },
    });
    assert.deepEqual(asked, ['update-index c 1-1', 'point-query c 2-1']);
    assert.deepEqual([outcome.state, outcome.runs], ['done', 2]);
    assert.deepEqual(
      (await store.instructionRuns(sessionId)).map((r) => r.role),
      ['candidate', 'candidate'],
    );
    assert.match(laneAnnouncement(one), /^instructions lane: 2 tests x 1 side x 1 repeats = 2 runs under callgrind/);
  });

  test('the status line follows the lane: each run as it starts, the runs left at the pace so far', async () => {
    const sessionId = await store.createSession(sessionInput(hostId));
    const told: string[] = [];
    const one: LanePlan = { ...plan, settings: { ...plan.settings, repeats: 1 } };
    await runInstructionLane(suite, instances, one, {
      store,
      log: silentLog,
      signal: new AbortController().signal,
      sessionId,
      cpuModel: 'AMD EPYC',
      count: async () => counted(84_000_000),
      progress: { counting: (run, of, what, secondsLeft) => told.push(`${run}/${of} ${what} ${secondsLeft}`) },
    });
    // Before the first run the plan's cost (15 s + 2500 events x 6 ms = 30 s a run); then the runs' own 20 s.
    assert.deepEqual(told, [
      '1/4 update-index baseline 120',
      '2/4 update-index candidate 60',
      '3/4 point-query baseline 40',
      '4/4 point-query candidate 20',
    ]);
  });

  test('a run that fails ends the lane with its one line; the runs before it stay', async () => {
    const sessionId = await store.createSession(sessionInput(hostId));
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) });
    let n = 0;
    const outcome = await runInstructionLane(suite, instances, plan, {
      store,
      log,
      signal: new AbortController().signal,
      sessionId,
      cpuModel: 'x',
      count: async () => {
        if (++n === 3) throw new Error('server did not start (mysqld exited)\nsecond line');
        return counted(84_000_000);
      },
    });
    assert.deepEqual(
      [outcome.state, outcome.reason, outcome.runs],
      ['failed', 'server did not start (mysqld exited)', 2],
    );
    assert.equal((await store.instructionRuns(sessionId)).length, 2);
    assert.deepEqual((await store.instructionLane(sessionId))?.reason, 'server did not start (mysqld exited)');
    assert.match(warnings.join('\n'), /instructions lane failed: server did not start.*QPS lane's verdicts stand/);
  });

  test('a stop goes on up, the lane unrecorded; a plan without a counter is recorded as skipped', async () => {
    const sessionId = await store.createSession(sessionInput(hostId));
    const controller = new AbortController();
    await assert.rejects(
      runInstructionLane(suite, instances, plan, {
        store,
        log: silentLog,
        signal: controller.signal,
        sessionId,
        cpuModel: 'x',
        count: async () => {
          controller.abort(new Error('stopped by SIGINT'));
          throw new Error('sysbench was killed by SIGTERM');
        },
      }),
      /SIGTERM/,
    );
    assert.equal(await store.instructionLane(sessionId), undefined);
    const skipped = await runInstructionLane(
      suite,
      instances,
      { counter: undefined, reason: 'valgrind is not installed (Debian: apt-get install valgrind)' },
      { store, log: silentLog, signal: new AbortController().signal, sessionId, cpuModel: 'x' },
    );
    assert.deepEqual([skipped.state, skipped.runs], ['skipped', 0]);
    assert.match((await store.instructionLane(sessionId))?.reason ?? '', /valgrind is not installed/);
  });
});

describe('the pre-flight line and the conditions hash', () => {
  test('says the runs and minutes, or why not', () => {
    assert.match(laneAnnouncement(plan), /^instructions lane: 2 tests x 2 sides x 3 repeats = 12 runs under callgrind/);
    assert.match(laneAnnouncement(plan), /about \d+ min after the pairs$/);
    assert.equal(
      laneAnnouncement({ counter: undefined, reason: 'instruction_counter is off' }),
      'instructions lane skipped: instruction_counter is off; the QPS lane goes on',
    );
  });

  test('the same conditions hash the same whatever the order of their keys; any change hashes otherwise', () => {
    assert.equal(hashOf({ a: 1, b: { c: [1, 2], d: 'x' } }), hashOf({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    assert.notEqual(hashOf({ a: 1, b: { c: [1, 2] } }), hashOf({ a: 1, b: { c: [2, 1] } }));
    assert.match(hashOf({}), /^[0-9a-f]{16}$/);
  });
});
