import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { compareSession, judgeInstructionRuns } from '../../../src/analysis/index.js';
import { checkRelease, lastGoodBelow, type CheckDeps } from '../../../src/checks/index.js';
import { type CycleSettings } from '../../../src/daemon/index.js';
import { judgeStored, type CompareOutcome, type CompareRequest } from '../../../src/session/index.js';
import { openStore, type ReleaseRecord, type Store } from '../../../src/store/index.js';
import { storedInstructionsView } from '../../../src/views/index.js';
import type { Suite } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { hostInput, sampleInput, sessionInput, targetRef } from '../store/store-inputs.js';
import { fakeSettings, recordBuild, recordDemoReleases, upstream, VERDICTS } from './fake-session.js';

/**
 * The instructions lane's part of a check on a real store, its session a fake that stores counted runs and function
 * tables as the lane would: an instructions regression against the last good opens its own event and email (with the
 * functions that grew) and keeps the release from last good; a drift under the threshold per release is caught
 * against the series' base straight from the base's stored figures.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-instruction-check-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let store: Store;
let releases: ReleaseRecord[];
/** Instructions per query of point-query per version: each release adds 1.2%, 10.11.3 a 5% spin of its own. */
const PER_QUERY: Record<string, number> = {
  '10.11.1': 42_000,
  '10.11.2': 42_000 * 1.012,
  '10.11.3': 42_000 * 1.012 * 1.05,
  '10.11.4': 42_000 * 1.012 * 1.012,
};

const settings = (): CycleSettings =>
  ({
    ...fakeSettings(dir),
    instructions: {
      counter: 'callgrind',
      repeats: 2,
      events: 2000,
      warmupEvents: 500,
      verdicts: { threshold: 1.02, testThresholds: {} },
    },
  }) as CycleSettings;

function deps(compare: CheckDeps['compare']): CheckDeps {
  return {
    store,
    settings: settings(),
    log: silentLog,
    upstreams: [upstream],
    signal: new AbortController().signal,
    ...(compare !== undefined ? { compare } : {}),
  };
}

const version = (tag: string): string => tag.replace('mariadb-', '');

/** A session whose QPS lane finds nothing and whose instructions lane counted PER_QUERY, both sides twice. */
const laneCompare: NonNullable<CheckDeps['compare']> = async (request: CompareRequest) => {
  const hostId = await store.upsertHost(hostInput());
  const sessionId = await store.createSession(
    sessionInput(hostId, {
      baseline: targetRef(request.baseline, version(request.baseline)),
      candidate: targetRef(request.candidate, version(request.candidate)),
      rounds: 3,
      settings: { design: 'runs', verdicts: VERDICTS },
    }),
  );
  for (let round = 1; round <= 3; round++)
    for (const role of ['baseline', 'candidate'] as const)
      await store.addSample(sessionId, sampleInput({ round, role, test: 'point-query', qps: 1000 + round }));
  for (const [role, tag] of [
    ['baseline', request.baseline],
    ['candidate', request.candidate],
  ] as const) {
    const perQuery = PER_QUERY[version(tag)]!;
    for (const repeat of [1, 2])
      await store.addInstructionRun(sessionId, {
        role,
        target: tag,
        buildKey: `k-${version(tag)}`,
        test: 'point-query',
        threads: 1,
        repeat,
        instructions: Math.round(perQuery * 2000) + repeat,
        queries: 2000,
        conditions: { test: 'point-query' },
        conditionKey: 'same-conditions',
        seconds: 20,
      });
    await store.addInstructionFunctions(sessionId, {
      role,
      test: 'point-query',
      threads: 1,
      functions: [
        { name: 'dispatch_command', object: 'mariadbd', inclusive: perQuery, exclusive: 10 },
        { name: 'spin_a_little<T>()', object: 'mariadbd', inclusive: perQuery - 42_000, exclusive: perQuery - 42_000 },
      ],
    });
  }
  const lane = {
    state: 'done' as const,
    counter: 'callgrind' as const,
    counterVersion: 'valgrind-3.19.0',
    runs: 4,
    seconds: 80,
  };
  await store.recordInstructionLane(sessionId, lane);
  await store.finishSession(sessionId);
  const plan = {
    design: 'runs' as const,
    budgetMinutes: 0,
    maxPairs: 0,
    plannedSweeps: 0,
    idleServer: 'drain' as const,
    idleStatesHeld: false,
    idleHoldReason: 'a fake session',
    verdicts: VERDICTS,
  };
  const samples = await store.completedSamples(sessionId);
  const verdicts = judgeStored(plan, samples);
  const view = compareSession((await store.getSession(sessionId))!, samples, { cpu: 'fake' }, verdicts);
  const instructions = {
    lane,
    verdicts: judgeInstructionRuns(await store.instructionRuns(sessionId), { threshold: 1.02, testThresholds: {} }),
  };
  return { sessionId, view, verdicts, fingerprintId: 'fp', plan, instructions } satisfies CompareOutcome;
};

const check = (release: ReleaseRecord) =>
  checkRelease({ release, suite: { name: 'quick' } as Suite, rounds: 3 }, deps(laneCompare));

const sentMail = (): string[] =>
  readdirSync(join(dir, 'outbox'))
    .filter((f) => f.endsWith('.eml'))
    .map((f) => readFileSync(join(dir, 'outbox', f), 'utf8'));

describe('the instructions lane in a check', () => {
  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    releases = await recordDemoReleases(store, ['10.11.1', '10.11.2', '10.11.3', '10.11.4']);
    for (const r of releases) await recordBuild(store, r, dir);
    await checkRelease({ release: releases[0]!, suite: { name: 'quick' } as Suite, rounds: 3 }, deps(undefined));
  });
  after(() => store.close());

  test('1.2% more under a 2% threshold is ok: the release becomes last good, nothing is emailed', async () => {
    const result = await check(releases[1]!);
    assert.equal(result.kind, 'checked');
    assert.deepEqual(
      result.instructions?.verdicts.map((v) => [v.test, v.kind]),
      [['point-query', 'ok']],
    );
    assert.equal(result.check.conclusive, true);
    assert.equal((await lastGoodBelow(store, releases[2]!))?.release.tag, 'mariadb-10.11.2');
    assert.deepEqual(await store.listInstructionEvents({}), []);
  });

  test('5% more opens an instructions regression, emailed once with what grew; not last good', async () => {
    const result = await check(releases[2]!);
    assert.equal(result.kind, 'checked');
    assert.equal(result.check.conclusive, false);
    const [event] = await store.listInstructionEvents({ state: 'open' });
    assert.deepEqual([event?.test, event?.kind, event?.releaseId], ['point-query', 'regression', releases[2]!.id]);
    assert.equal((await lastGoodBelow(store, releases[3]!))?.release.tag, 'mariadb-10.11.2');
    const mails = sentMail().filter((m) => /instructions per query grew/.test(m));
    assert.equal(mails.length, 1);
    assert.match(mails[0]!, /point-query\.t1 \+5\.0% of mariadb-10\.11\.2/);
    assert.match(mails[0]!, /spin_a_little<T>\(\)/, 'the function that grew, in the text part');
    assert.match(mails[0]!, /spin_a_little&lt;T&gt;\(\)/, 'escaped in the HTML part');
  });

  test('a release back at 1.2% a step fixes the regression and is caught drifting against the base', async () => {
    const result = await check(releases[3]!);
    assert.equal(result.kind, 'checked');
    // Against the last good 10.11.2: 1.2% more, ok. Against the base 10.11.1, from its stored counts: 2.4% more.
    assert.deepEqual(
      result.instructions?.verdicts.map((v) => v.kind),
      ['ok'],
    );
    assert.equal(result.instructions?.againstBase?.tag, 'mariadb-10.11.1');
    assert.deepEqual(
      result.instructions?.againstBase?.verdicts.map((v) => [v.kind, v.ratio.toFixed(3)]),
      [['regression', '1.024']],
    );
    const events = await store.listInstructionEvents({});
    assert.deepEqual(
      events.map((e) => [e.kind, e.state, e.baselineReleaseId]),
      [
        ['regression', 'fixed', releases[1]!.id],
        ['drift', 'open', releases[0]!.id],
      ],
    );
    const drift = sentMail().filter(
      (m) => /instructions per query grew/.test(m) && /of base mariadb-10\.11\.1/.test(m),
    );
    assert.equal(drift.length, 1);
  });

  test("show reads a check's lane back: its recorded verdicts and, per test, the functions that grew", async () => {
    const checks = await store.listChecks('demo');
    const regressed = checks.find((c) => c.releaseId === releases[2]!.id)!;
    // Today's threshold is not the one the check judged by: a check's verdicts are the ones it recorded.
    const view = await storedInstructionsView(store, regressed.sessionId, { threshold: 1.5, testThresholds: {} });
    assert.deepEqual(
      view?.verdicts.map((v) => [v.test, v.kind, v.threshold]),
      [['point-query', 'regression', 1.02]],
    );
    const [grown] = view?.grown ?? [];
    assert.deepEqual(
      grown?.functions.map((f) => [f.name, Math.round(f.inclusiveGrowth)]),
      // The same inclusive growth: the one that grew in its own code first.
      [
        ['spin_a_little<T>()', Math.round(PER_QUERY['10.11.3']! - PER_QUERY['10.11.2']!)],
        ['dispatch_command', Math.round(PER_QUERY['10.11.3']! - PER_QUERY['10.11.2']!)],
      ],
    );
  });
});
