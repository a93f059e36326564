import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  alphaAtLook,
  criticalValue,
  judgePairedSession,
  lookReach,
  lookSchedule,
  pairStatistic,
  pairsAtLook,
  replayLooks,
  signFlipMaxT,
  SIGN_VECTORS,
  studentCdf,
  studentQuantile,
  type PairSeries,
} from '../../../src/analysis/index.js';
import type { SampleRecord } from '../../../src/store/index.js';

describe("Student's t", () => {
  // Reference values from printed tables of the t distribution.
  const quantiles: Array<[number, number, number]> = [
    [0.975, 1, 12.706],
    [0.975, 7, 2.365],
    [0.95, 11, 1.796],
    [0.995, 20, 2.845],
    [0.8, 7, 0.896],
    [0.975, 1000, 1.962],
  ];
  for (const [p, df, t] of quantiles)
    test(`t(${p}, ${df}) = ${t}`, () =>
      assert.ok(Math.abs(studentQuantile(p, df) - t) < 1e-3, String(studentQuantile(p, df))));
  test('the cdf and the quantile invert each other, on both sides', () => {
    for (const df of [2, 5, 30])
      for (const p of [0.001, 0.2, 0.5, 0.9, 0.9999])
        assert.ok(Math.abs(studentCdf(studentQuantile(p, df), df) - p) < 1e-9);
  });
});

describe('the look schedule', () => {
  test(
    'pairs at 8, 12, 18, 27, 41, ... and max_pairs last; the looks share ' +
      'alpha, half at the first, and add up to it',
    () => {
      assert.deepEqual([1, 2, 3, 4, 5].map(pairsAtLook), [8, 12, 18, 27, 41]);
      assert.deepEqual(lookSchedule(200), [8, 12, 18, 27, 41, 61, 91, 137, 200]);
      assert.deepEqual(lookSchedule(20), [8, 12, 18, 20]);
      const spent = lookSchedule(200).map((_, i) => alphaAtLook(0.01, i + 1, 9));
      assert.equal(spent[0], 0.005);
      assert.ok(Math.abs(spent.reduce((a, b) => a + b, 0) - 0.01) < 1e-12);
    },
  );
  test('a look whose sign vectors cannot go below its alpha says so', () => {
    assert.ok(
      lookReach(0.01, 200).every((l) => l.canReject),
      'the defaults reach every look',
    );
    const low = lookReach(0.005, 200);
    assert.equal(low[0]!.canReject, false, '1/256 > 0.0025');
    assert.equal(low[1]!.canReject, true, '1/4096 <= 0.0003125');
    assert.ok(lookReach(0.0001, 200).every((l) => !l.canReject));
  });
});

/** Deterministic pseudo-noise: the same numbers on every run. */
function noise(seed: number, n: number, size: number): number[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return ((a / 2 ** 31) * 2 - 1) * size;
  });
}
/** B first, C first, B first, ...: the alternation of a real session. */
const alternating = (n: number): boolean[] => Array.from({ length: n }, (_, i) => i % 2 === 0);
const pairsOf = (logRatios: number[]) => ({ logRatios, baselineFirst: alternating(logRatios.length) });

describe('signFlipMaxT', () => {
  test('a clean drop is as extreme as 8 pairs can be: p = 1/256, and the noisy test next to it is not flagged', () => {
    const drop = noise(1, 8, 0.01).map((d) => d - 0.3);
    const same = noise(2, 8, 0.05);
    const result = signFlipMaxT([pairsOf(drop), pairsOf(same)]);
    assert.equal(result.flips, 256);
    assert.equal(result.slower[0], 1 / 256);
    assert.ok(result.slower[1]! > 0.2, `p of the unchanged test ${result.slower[1]}`);
  });
  test('the max over tests makes every p-value family-wise: a test alone gets a p-value no larger', () => {
    const a = pairsOf(noise(3, 10, 0.05).map((d) => d - 0.04));
    const b = pairsOf(noise(4, 10, 0.05));
    assert.ok(signFlipMaxT([a]).slower[0]! <= signFlipMaxT([a, b]).slower[0]!);
  });
  test('more than 4096 sign vectors are sampled, seeded and reproducible', () => {
    const series = [pairsOf(noise(5, 20, 0.05))];
    const one = signFlipMaxT(series, 7);
    assert.equal(one.exhaustive, false);
    assert.equal(one.flips, SIGN_VECTORS);
    assert.deepEqual(signFlipMaxT(series, 7), one);
  });
  test(
    'the test is exact: over every relabelling of one set of pairs (outlier ' +
      'and order effect included), p <= a in at most a share a',
    () => {
      const d = [0.05, -0.02, 0.09, -2, 0.04, 0.01, 0.07, 0.03];
      const first = alternating(8);
      let atMost = 0;
      for (let mask = 0; mask < 256; mask++) {
        const g = (i: number): number => ((mask >> i) & 1 ? -1 : 1);
        const relabelled = {
          logRatios: d.map((x, i) => g(i) * x),
          baselineFirst: first.map((b, i) => (g(i) > 0 ? b : !b)),
        };
        if (signFlipMaxT([relabelled]).slower[0]! <= 0.05) atMost++;
      }
      assert.ok(atMost <= 0.05 * 256, `${atMost} of 256 relabellings at p <= 0.05`);
    },
  );
  test('a neighbour with an order effect and no drop does not block a clean drop at the first look', () => {
    // In a sweep neighbours run in opposite orders; the neighbour's second run is 6% faster, its C no slower.
    const drop = pairsOf(noise(14, 8, 0.002).map((d) => d - 0.04));
    const neighbour = {
      logRatios: alternating(8).map((bFirst) => (bFirst ? -0.06 : 0.06)),
      baselineFirst: alternating(8).map((b) => !b),
    };
    assert.equal(signFlipMaxT([drop, neighbour]).slower[0], 1 / 256);
  });
  test('the interval widens with a hiccup as the test weakens: it does not contradict the verdict', () => {
    const [j] = replayLooks(
      [series('h', [-0.1, -0.1, -0.1, 2, -0.1, -0.1, -0.1, -0.1])],
      { ...settings, maxPairs: 8 },
      true,
    ).decided;
    assert.ok(j!.relativeQps < 0.93, `the estimate keeps the drop: ${j!.relativeQps}`);
    assert.equal(j!.kind, 'unstable');
    assert.ok(j!.high >= 1, `not significant, and the interval reaches 1: ${j!.low}-${j!.high}`);
  });
  test('a critical value reads off the max-T distribution; under 1/flips there is none', () => {
    const result = signFlipMaxT([pairsOf(noise(6, 8, 0.05))]);
    assert.equal(criticalValue(result.maxDrops, 0.001), Number.POSITIVE_INFINITY);
    const c = criticalValue(result.maxDrops, 0.05);
    assert.ok(Number.isFinite(c) && result.maxDrops.filter((m) => m > c).length <= 0.05 * 256);
  });
});

describe('pairStatistic', () => {
  test("a hiccup is clipped around the test's own centre, so it cannot cancel a real drop", () => {
    const d = [-0.1, -0.1, -0.1, 2, -0.1, -0.1, -0.1, -0.1];
    const estimate = Math.exp(pairStatistic(pairsOf(d)).estimate);
    assert.ok(estimate < 0.93, `C/B ${estimate}, truth 0.905 (clipped around 0 it read 0.978)`);
  });
  test('the two orders weigh the same, the order effect is reported, and the noise is what is left', () => {
    // 9 pairs, 5 in the order B C and 4 in C B: the second run of a pair is 4% faster, C is 5% slower.
    const d = alternating(9).map(
      (baselineFirst, i) => -0.05 + (baselineFirst ? 0.04 : -0.04) + (i % 3 === 0 ? 0.002 : -0.001),
    );
    const stat = pairStatistic(pairsOf(d));
    assert.ok(Math.abs(stat.estimate - -0.05) < 0.002, `estimate ${stat.estimate}`);
    assert.ok(Math.abs(stat.orderEffect - 0.04) < 0.002, `order effect ${stat.orderEffect}`);
    assert.equal(stat.noise, 0.01, 'the spread left is under the floor');
  });
});

const settings = { alpha: 0.01, confidence: 0.95, maxPairs: 200, thresholdOf: () => 0.95 };
const series = (key: string, logRatios: number[]): PairSeries => ({ key, test: key, ...pairsOf(logRatios) });
const centred = (values: number[]): number[] =>
  values.map((v) => v - values.reduce((a, x) => a + x, 0) / values.length);

describe('replayLooks', () => {
  test('at the first look a big drop is a regression and a steady equal test is ok; nothing is left open', () => {
    const replay = replayLooks(
      [
        series(
          'slow',
          noise(6, 8, 0.01).map((d) => d - 0.5),
        ),
        series('same', noise(7, 8, 0.01)),
      ],
      settings,
      false,
    );
    assert.deepEqual(replay.pending, []);
    const kinds = Object.fromEntries(replay.decided.map((j) => [j.key, [j.kind, j.look, j.pairs]]));
    assert.deepEqual(kinds, { slow: ['regression', 1, 8], same: ['ok', 1, 8] });
  });
  test('a noisy test stays open for the next look (12 pairs) while the session goes on', () => {
    const replay = replayLooks([series('noisy', noise(8, 9, 0.3))], settings, false);
    assert.deepEqual(replay.pending, ['noisy']);
    assert.equal(replay.nextPairs, 12);
  });
  test(
    'when the budget ends between looks, what is open is judged on all its ' + 'pairs and left unstable with its bound',
    () => {
      const replay = replayLooks([series('noisy', noise(8, 10, 0.3))], settings, true);
      const [j] = replay.decided;
      assert.equal(j?.kind, 'unstable');
      assert.equal(j?.pairs, 10);
      assert.equal(j?.look, 2);
      assert.ok(j!.low < 0.95 && j!.detectableDrop > 0.05, `low ${j!.low}, detectable ${j!.detectableDrop}`);
    },
  );
  test('a significant drop within the margin ends as slower, with its interval', () => {
    const d = centred(noise(21, 41, 0.09)).map((x) => x - 0.035);
    const [j] = replayLooks([series('a', d)], { ...settings, maxPairs: 41 }, true).decided;
    assert.equal(j?.kind, 'slower', `C/B ${j?.relativeQps}, ${j?.low}-${j?.high}, p ${j?.pSlower}`);
    assert.ok(j!.low < 0.95 && j!.high < 1);
  });
  test('the detectable drop shrinks as pairs are added, and is 1 (unreachable) where the look cannot reject', () => {
    // The same spread at every size, in both orders: + + - - + + - - ... of 0.1, so only the pairs and the look change.
    const at = (n: number): number => {
      const [j] = replayLooks(
        [
          series(
            'x',
            Array.from({ length: n }, (_, i) => (i % 4 < 2 ? 0.1 : -0.1)),
          ),
        ],
        { ...settings, thresholdOf: () => 0.9999 },
        true,
      ).decided;
      assert.equal(j!.pairs, n, 'judged on all its pairs');
      return j!.detectableDrop;
    };
    assert.ok(at(18) > at(41) && at(41) > at(91), `${at(18)} ${at(41)} ${at(91)}`);
    const [j] = replayLooks([series('x', noise(9, 8, 0.05))], { ...settings, alpha: 0.001 }, true).decided;
    assert.equal(j!.detectableDrop, 1);
    assert.equal(j!.high, Number.POSITIVE_INFINITY);
  });
});

describe('judgePairedSession', () => {
  const sample = (role: 'baseline' | 'candidate', round: number, test: string, qps: number): SampleRecord =>
    ({
      id: 0,
      sessionId: 1,
      createdAt: '',
      role,
      round,
      test,
      threads: 1,
      targetName: role,
      seconds: 1,
      qps,
      tps: qps,
      latencyAvgMs: 1,
      latencyP95Ms: 1,
      latencyMaxMs: 1,
      errors: 0,
      reconnects: 0,
      cpuPerOp: role === 'candidate' && test === 'write' ? 0.02 : 0.01,
      cpuMicrosPerOp: 1,
      csPerOp: 1,
      readsPerOp: 0,
      readKBPerOp: 0,
      writeKBPerOp: role === 'candidate' && test === 'write' ? 3 : 1,
      host: {},
      dbCounters: {},
    }) as SampleRecord;
  test(
    'pairs by round give each test a verdict with its interval, detectable ' +
      'drop, pairs and noise; a regression names what grew',
    () => {
      const samples: SampleRecord[] = [];
      const jitter = noise(10, 20, 0.01);
      for (let r = 1; r <= 8; r++) {
        samples.push(
          sample('baseline', r, 'write', 1000 * (1 + jitter[r]!)),
          sample('candidate', r, 'write', 600 * (1 + jitter[r + 8]!)),
        );
        samples.push(
          sample('candidate', r, 'read', 2000 * (1 + jitter[r + 4]!)),
          sample('baseline', r, 'read', 2000 * (1 + jitter[r - 1]!)),
        );
      }
      const { verdicts } = judgePairedSession(samples, { threshold: 0.95, testThresholds: {}, alpha: 0.01 });
      const write = verdicts.find((v) => v.test === 'write')!;
      const read = verdicts.find((v) => v.test === 'read')!;
      assert.equal(write.kind, 'regression');
      assert.ok(Math.abs(write.relativeQps - 0.6) < 0.02);
      assert.equal(write.hint[0]?.metric, 'wKB/o');
      assert.equal(read.kind, 'ok');
      for (const v of verdicts) {
        assert.equal(v.pairs, 8);
        assert.ok(v.high !== null && v.low < v.relativeQps && v.relativeQps < v.high);
        assert.ok(v.detectableDrop > 0 && v.detectableDrop < 0.2, `${v.test}: ${v.detectableDrop}`);
        assert.ok(v.noise !== null && v.noise > 0);
      }
    },
  );

  test(
    'one pair has no upper end and no noise, and a figure grown from 0 has ' +
      'no ratio: each is null, never Infinity or NaN',
    () => {
      const fromZero = (s: SampleRecord): SampleRecord => ({ ...s, readsPerOp: s.role === 'candidate' ? 2 : 0 });
      const samples = [sample('baseline', 1, 'write', 1000), sample('candidate', 1, 'write', 500)].map(fromZero);
      const [v] = judgePairedSession(samples, { threshold: 0.95, testThresholds: {}, alpha: 0.01 }).verdicts;
      assert.equal(v!.pairs, 1);
      assert.equal(v!.high, null);
      assert.equal(v!.noise, null);
      const grown = judgePairedSession(
        [
          ...samples,
          ...[2, 3, 4, 5, 6, 7, 8].flatMap((r) =>
            [sample('baseline', r, 'write', 1000), sample('candidate', r, 'write', 500)].map(fromZero),
          ),
        ],
        { threshold: 0.95, testThresholds: {}, alpha: 0.01 },
      );
      const hint = grown.verdicts[0]!.hint;
      assert.equal(grown.verdicts[0]!.kind, 'regression');
      assert.deepEqual(
        hint.find((h) => h.metric === 'r/o'),
        { metric: 'r/o', baseline: 0, candidate: 2, ratio: null },
      );
      assert.equal(hint[0]!.metric, 'r/o', 'a figure grown from 0 leads the hint');
    },
  );
});

describe('replayLooks of a finished session', () => {
  test('a test decided at the first look keeps its verdict while the family is measured on to a later look', () => {
    const decidedEarly = series('steady', noise(11, 18, 0.005));
    const measuredOn = series('noisy', [...noise(12, 8, 0.3), ...noise(13, 10, 0.01)]);
    const replay = replayLooks([decidedEarly, measuredOn], settings, true);
    const byKey = Object.fromEntries(replay.decided.map((j) => [j.key, j]));
    assert.equal(byKey['steady']?.pairs, 8);
    assert.equal(byKey['steady']?.kind, 'ok');
    assert.equal(byKey['noisy']?.pairs, 18, 'judged on all 18 of its pairs');
    assert.equal(byKey['noisy']?.look, 3);
  });
});
