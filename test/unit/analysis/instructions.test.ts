import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  functionGrowth,
  instructionSide,
  judgeAgainstStored,
  judgeInstructionRuns,
  judgeInstructionTest,
  planInstructionEvents,
} from '../../../src/analysis/index.js';
import type { InstructionVerdict } from '../../../src/model/index.js';
import type { InstructionEventRecord, InstructionRunRecord } from '../../../src/store/index.js';

const t = { test: 'point-query', threads: 1 };
const settings = { threshold: 1.02, testThresholds: { 'update-index': 1.05 } };

function run(role: 'baseline' | 'candidate', test: string, perQuery: number, overrides = {}): InstructionRunRecord {
  return {
    id: 1,
    sessionId: 1,
    role,
    target: role,
    buildKey: `key-${role}`,
    test,
    threads: 1,
    repeat: 1,
    instructions: perQuery * 2000,
    queries: 2000,
    conditions: {},
    conditionKey: `cond-${test}`,
    seconds: 20,
    createdAt: '2026-12-03T00:00:00.000Z',
    ...overrides,
  };
}

describe('judgeInstructionTest', () => {
  // The A/A spread measured on this VM: point select 0.00%, update-index 0.04% (docs/verdicts.md).
  const table: Array<[string, number[], number[], InstructionVerdict['kind']]> = [
    ['the same counts are ok', [42_000, 42_000], [42_000, 42_000], 'ok'],
    ['3% more, beyond a 0.04% spread, is a regression', [100_000, 100_040], [103_000, 103_020], 'regression'],
    ['1% more is ok under a 2% threshold', [42_000, 42_010], [42_420, 42_425], 'ok'],
    ['3% fewer, beyond the spread, is an improvement', [42_000, 42_001], [40_740, 40_741], 'improvement'],
    // A test that does not count the same twice: the spread straddles the threshold.
    ['a 5% spread across a 3% growth is unclear', [100_000, 105_000], [103_000, 106_000], 'unclear'],
    ['a 1% estimate whose spread reaches past 2% is unclear', [100_000, 99_000], [101_000, 101_500], 'unclear'],
  ];
  for (const [name, baseline, candidate, kind] of table)
    test(name, () => assert.equal(judgeInstructionTest(t, baseline, candidate, 1.02).kind, kind));

  test("the ratio is of medians; its bounds are the spread's extreme pairings", () => {
    const v = judgeInstructionTest(t, [100, 102, 101], [110, 111, 109], 1.02);
    assert.equal(v.ratio, 110 / 101);
    assert.equal(v.low, 109 / 102);
    assert.equal(v.high, 111 / 100);
    assert.deepEqual(v.baseline, { perQuery: [100, 102, 101], median: 101, spread: 2 / 101 });
  });

  test('a side of one repeat has no spread; of two, the median is their mean', () => {
    assert.deepEqual(instructionSide([5]), { perQuery: [5], median: 5, spread: 0 });
    assert.equal(instructionSide([4, 6]).median, 5);
    assert.throws(() => instructionSide([]), RangeError);
  });
});

describe("a session's runs and stored figures", () => {
  test('every test with runs on both sides is judged at its own threshold, in the order of its first run', () => {
    const runs = [
      run('baseline', 'update-index', 100_000),
      run('candidate', 'update-index', 104_000),
      run('baseline', 'point-query', 42_000),
      run('candidate', 'point-query', 43_000),
      run('baseline', 'insert', 50_000),
    ];
    assert.deepEqual(
      judgeInstructionRuns(runs, settings).map((v) => [v.test, v.kind, v.threshold]),
      [
        ['update-index', 'ok', 1.05],
        ['point-query', 'regression', 1.02],
      ],
    );
  });

  test('against stored figures: only those of the same condition key, the release as C', () => {
    const release = [run('candidate', 'point-query', 43_000), run('candidate', 'insert', 50_000)];
    const base = new Map([['cond-point-query', [run('baseline', 'point-query', 42_000, { sessionId: 7 })]]]);
    const verdicts = judgeAgainstStored(release, base, settings);
    assert.deepEqual(
      verdicts.map((v) => [v.test, v.kind, v.baseline.median, v.candidate.median]),
      [['point-query', 'regression', 42_000, 43_000]],
    );
  });
});

describe('functionGrowth', () => {
  test('joins both tables by name, largest inclusive growth first, absent functions counting 0', () => {
    const baseline = [
      { name: 'dispatch_command', object: 'mariadbd', inclusive: 42_000, exclusive: 10 },
      { name: 'gone', object: 'mariadbd', inclusive: 50, exclusive: 50 },
      { name: 'same', object: 'mariadbd', inclusive: 900, exclusive: 100 },
    ];
    const candidate = [
      { name: 'dispatch_command', object: 'mariadbd', inclusive: 43_300, exclusive: 10 },
      { name: 'same', object: 'mariadbd', inclusive: 900, exclusive: 100 },
      { name: 'new_spin()', object: 'mariadbd', inclusive: 1_250, exclusive: 1_250 },
    ];
    const rows = functionGrowth(baseline, candidate, 3);
    assert.deepEqual(
      rows.map((r) => [r.name, r.inclusiveGrowth, r.exclusiveGrowth]),
      [
        ['dispatch_command', 1_300, 0],
        ['new_spin()', 1_250, 1_250],
        ['same', 0, 0],
      ],
    );
    assert.equal(functionGrowth(baseline, candidate).at(-1)?.name, 'gone');
  });
});

describe('planInstructionEvents', () => {
  const counts: Record<InstructionVerdict['kind'], [number[], number[]]> = {
    ok: [[100], [100]],
    regression: [[100], [110]],
    improvement: [[100], [90]],
    unclear: [
      [100, 105],
      [103, 106],
    ],
  };
  const verdict = (test: string, kind: InstructionVerdict['kind']): InstructionVerdict => {
    const v = judgeInstructionTest({ test, threads: 1 }, ...counts[kind], 1.02);
    assert.equal(v.kind, kind);
    return v;
  };
  const event = (id: number, test: string, kind: 'regression' | 'drift'): InstructionEventRecord => ({
    id,
    upstream: 'u',
    test,
    threads: 1,
    releaseId: 1,
    baselineReleaseId: 1,
    sessionId: 1,
    ratio: 1.1,
    kind,
    state: 'open',
    acked: false,
    openedAt: '',
    closedAt: null,
    closedByReleaseId: null,
  });

  test('a regression opens before a drift; an open event continues quietly', () => {
    const plan = planInstructionEvents(
      [verdict('a', 'regression'), verdict('b', 'ok'), verdict('c', 'regression')],
      [verdict('a', 'regression'), verdict('b', 'regression'), verdict('c', 'regression')],
      [event(9, 'c', 'regression')],
    );
    assert.deepEqual(
      plan.opened.map((o) => [o.verdict.test, o.kind]),
      [
        ['a', 'regression'],
        ['b', 'drift'],
      ],
    );
    assert.deepEqual(
      plan.continuing.map((v) => v.test),
      ['c'],
    );
    assert.deepEqual(plan.fixed, []);
  });

  test('a regression event is fixed by the last good verdict, a drift by the base one; unclear does neither', () => {
    const open = [event(1, 'a', 'regression'), event(2, 'b', 'drift'), event(3, 'c', 'regression')];
    const plan = planInstructionEvents(
      [verdict('a', 'ok'), verdict('b', 'ok'), verdict('c', 'unclear')],
      [verdict('a', 'regression'), verdict('b', 'improvement')],
      open,
    );
    assert.deepEqual(
      plan.fixed.map((e) => e.id),
      [1, 2],
    );
    // a is fixed against the last good but still past the base: its test is free, so a drift opens for it.
    assert.deepEqual(
      plan.opened.map((o) => [o.verdict.test, o.kind]),
      [['a', 'drift']],
    );
  });
});
