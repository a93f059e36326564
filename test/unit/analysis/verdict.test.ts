import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, judgeSession, robustSpread } from '../../../src/analysis/index.js';
import type { SampleRecord } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

const settings = { threshold: 0.95, testThresholds: {}, alpha: 0.05 };

/** A finished session's samples: per round, each side ran every test; qps and wKB/o as given per role. */
function session(
  rounds: number,
  tests: Record<string, { b: number[]; c: number[]; bWrite?: number; cWrite?: number }>,
): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const [name, t] of Object.entries(tests)) {
      for (const role of ['baseline', 'candidate'] as const) {
        const qps = (role === 'baseline' ? t.b : t.c)[round - 1]!;
        const writeKBPerOp = (role === 'baseline' ? t.bWrite : t.cWrite) ?? 0.5;
        const { host, ...rest } = sampleInput({
          round,
          role,
          test: name,
          threads: 1,
          qps,
          writeKBPerOp,
          dbCounters: { Innodb_os_log_written: { delta: 1, perOp: writeKBPerOp * 1000 } },
        });
        out.push({
          ...rest,
          host: host as Record<string, unknown>,
          id: out.length + 1,
          sessionId: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
        });
      }
    }
  }
  return out;
}

describe('classify', () => {
  const base = { threshold: 0.95, alpha: 0.05, pSlower: 1, pFaster: 1, low: 0.97, high: 1.03 as number | null };
  const cases: Array<[string, Partial<typeof base> & { relativeQps: number }, string]> = [
    ['a significant drop under the threshold', { relativeQps: 0.8, pSlower: 0.01, low: 0.75 }, 'regression'],
    [
      'a drop under the threshold that is not significant: inconclusive',
      { relativeQps: 0.9, pSlower: 0.3, low: 0.8 },
      'unstable',
    ],
    [
      'no drop, but an interval too wide to rule out one larger than the margin',
      { relativeQps: 1, pSlower: 0.5, low: 0.9 },
      'unstable',
    ],
    [
      'an interval under 1 that straddles the threshold: slower, not a regression',
      { relativeQps: 0.962, pSlower: 0.01, low: 0.931, high: 0.987 },
      'slower',
    ],
    [
      'under the threshold, not significant for the session, yet an interval under 1: slower',
      { relativeQps: 0.93, pSlower: 0.2, low: 0.9, high: 0.97 },
      'slower',
    ],
    [
      'an interval that reaches 1 is not slower: unstable',
      { relativeQps: 0.96, pSlower: 0.1, low: 0.92, high: 1 },
      'unstable',
    ],
    ['no upper end (one round a side): unstable', { relativeQps: 0.5, pSlower: 1, low: 0, high: null }, 'unstable'],
    [
      'a significant drop inside the threshold whose interval clears it',
      { relativeQps: 0.97, pSlower: 0.01, low: 0.96 },
      'ok',
    ],
    ['a significant gain over 1/threshold', { relativeQps: 1.2, pFaster: 0.01, low: 1.1 }, 'improvement'],
  ];
  for (const [name, evidence, expected] of cases)
    test(name, () => assert.equal(classify({ ...base, ...evidence }), expected));
});

describe('judgeSession', () => {
  test('flags the slowed write test with a hint naming wKB/o, and only that test', () => {
    const samples = session(4, {
      'update-index': { b: [1000, 1020, 990, 1010], c: [300, 310, 290, 305], bWrite: 0.5, cWrite: 15 },
      'point-query': { b: [5000, 5050, 4980, 5020], c: [5010, 4990, 5040, 5000] },
    });
    const verdicts = judgeSession(samples, settings);
    const update = verdicts.find((v) => v.test === 'update-index')!;
    assert.equal(update.kind, 'regression');
    assert.equal(update.pSlower, 1 / 70);
    assert.deepEqual(
      update.hint.map((h) => h.metric),
      ['wKB/o', 'Innodb_os_log_written'],
    );
    assert.equal(update.hint[0]!.ratio, 30);
    assert.equal(verdicts.find((v) => v.test === 'point-query')!.kind, 'ok');
  });

  test('a per-test threshold wins over the default', () => {
    const samples = session(4, { scan: { b: [100, 101, 99, 100], c: [92, 93, 91, 92] } });
    assert.equal(judgeSession(samples, settings)[0]!.kind, 'regression');
    assert.equal(judgeSession(samples, { ...settings, testThresholds: { scan: 0.9 } })[0]!.kind, 'ok');
  });

  test('two rounds can never be significant: the smallest p-value is 1/6', () => {
    const samples = session(2, { t: { b: [1000, 1000], c: [500, 500] } });
    const [verdict] = judgeSession(samples, settings);
    assert.ok(verdict!.pSlower >= 1 / 6);
    assert.notEqual(verdict!.kind, 'regression');
  });
});

test('robustSpread is a relative standard deviation that one odd round does not inflate', () => {
  assert.equal(robustSpread([100, 100, 100]), 0);
  assert.ok(Math.abs(robustSpread([90, 100, 110, 100, 1000]) - 0.14826) < 1e-9);
});
