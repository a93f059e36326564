import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  blocksToReject,
  canRejectWithin,
  criticalValue,
  judgePairedSession,
  lookPlan,
  lookReach,
  pairStatistic,
  replayLooks,
  signFlipMaxT,
  SIGN_VECTORS,
  studentCdf,
  studentQuantile,
  unreachableAlpha,
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

describe('the look plan', () => {
  test('looks where each test can first reach its share, the last at the planned blocks; shares add up to 1', () => {
    assert.deepEqual(lookPlan(16, 8, 0.01), { blocks: [11, 16], shares: [0.5, 0.5] });
    assert.deepEqual(lookPlan(200, 8, 0.01).blocks, [12, 31, 78, 200]);
    for (const planned of [9, 16, 21, 50, 200]) {
      const plan = lookPlan(planned, 8, 0.01);
      assert.ok(Math.abs(plan.shares.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      assert.equal(plan.blocks.at(-1), planned);
    }
  });
  test('a budget too short for two looks gets one; one too short for any says so, with what it needs', () => {
    assert.deepEqual(lookPlan(12, 8, 0.01), { blocks: [12], shares: [1] });
    assert.ok(lookReach(0.01, 8, 12).every((l) => l.canReject));
    assert.ok(
      lookReach(0.01, 8, 9).every((l) => !l.canReject),
      '1/512 > 0.01 / 8',
    );
    assert.match(unreachableAlpha(0.01, 8, 9)!, /it needs 10 sweeps/);
    assert.equal(unreachableAlpha(0.01, 8, 10), undefined);
  });
  test('a session the budget ends early: the look it forces takes the share of the look it cuts short', () => {
    // One look at 12 blocks, a test's share 0.01 / 8: 10 blocks (1/1024) reach it, 9 (1/512) do not.
    assert.equal(canRejectWithin(0.01, 8, 12, 12), true);
    assert.equal(canRejectWithin(0.01, 8, 12, 10), true);
    assert.equal(canRejectWithin(0.01, 8, 12, 9), false);
    assert.equal(blocksToReject(0.01, 8, 12), 10);
    // Two looks at 11 and 16, each with half the share: cut at 10, the first look needs 1/1600 and gets 1/1024.
    assert.equal(canRejectWithin(0.01, 8, 16, 10), false);
    assert.equal(canRejectWithin(0.01, 8, 16, 11), true);
    assert.equal(blocksToReject(0.01, 8, 16), 11);
    assert.equal(blocksToReject(0.01, 8, 9), undefined, 'a plan no look of which can reject');
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

const settings = { alpha: 0.01, confidence: 0.95, plannedBlocks: 16, thresholdOf: () => 0.95 };
/** One test's pairs, each on a pair of instances of its own (a block per pair) unless blocks are given. */
const series = (key: string, logRatios: number[], blocks?: number[]): PairSeries => ({
  key,
  test: key,
  ...pairsOf(logRatios),
  blocks: blocks ?? logRatios.map((_, i) => i),
});
const centred = (values: number[]): number[] =>
  values.map((v) => v - values.reduce((a, x) => a + x, 0) / values.length);

describe('replayLooks', () => {
  test('at the first look a big drop is a regression and a steady equal test is ok; nothing is left open', () => {
    // Two tests: the looks are at 9 and 16 blocks.
    const replay = replayLooks(
      [
        series(
          'slow',
          noise(6, 9, 0.01).map((d) => d - 0.5),
        ),
        series('same', noise(7, 9, 0.01)),
      ],
      settings,
      false,
    );
    assert.deepEqual(replay.pending, []);
    const kinds = Object.fromEntries(replay.decided.map((j) => [j.key, [j.kind, j.look, j.pairs]]));
    assert.deepEqual(kinds, { slow: ['regression', 1, 9], same: ['ok', 1, 9] });
  });
  test('looks fixed otherwise (bench:sim --looks) are taken where they say, each with its share', () => {
    const slow = series(
      'slow',
      noise(6, 9, 0.01).map((d) => d - 0.5),
    );
    const plan = { blocks: [12, 16], shares: [0.5, 0.5] };
    const early = replayLooks([slow], { ...settings, plan }, false);
    assert.deepEqual([early.pending, early.nextBlocks], [['slow'], 12], 'no look at 9 blocks under this plan');
    const pairs = series(
      'slow',
      noise(6, 12, 0.01).map((d) => d - 0.5),
    );
    const [j] = replayLooks([pairs], { ...settings, plan }, false).decided;
    assert.deepEqual([j?.kind, j?.look, j?.pairs, j?.logSeDf], ['regression', 1, 12, 11]);
  });
  test('a noisy test stays open for the next look while the session goes on', () => {
    const replay = replayLooks([series('noisy', noise(8, 10, 0.3))], settings, false);
    assert.deepEqual(replay.pending, ['noisy']);
    assert.equal(replay.nextBlocks, lookPlan(16, 1, 0.01).blocks[1]);
  });
  test('a decided test keeps its verdict and its pairs; the open one goes on to the next look', () => {
    const steady = series('steady', noise(11, 9, 0.005));
    const noisy = series('noisy', [...noise(12, 9, 0.3), ...noise(13, 7, 0.01)]);
    const replay = replayLooks([steady, noisy], settings, true);
    const byKey = Object.fromEntries(replay.decided.map((j) => [j.key, j]));
    assert.equal(byKey['steady']?.kind, 'ok');
    assert.equal(byKey['steady']?.pairs, 9);
    assert.equal(byKey['noisy']?.pairs, 16, 'judged at the last look on its 16 pairs');
    assert.equal(byKey['noisy']?.look, 2);
  });
  test('when the budget ends between looks, what is open is judged on all its pairs and left unstable', () => {
    const replay = replayLooks([series('noisy', noise(8, 12, 0.3))], settings, true);
    const [j] = replay.decided;
    assert.equal(j?.kind, 'unstable');
    assert.equal(j?.pairs, 12);
    assert.ok(j!.low < 0.95 && j!.detectableDrop > 0.05, `low ${j!.low}, detectable ${j!.detectableDrop}`);
  });
  test('a significant drop within the margin ends as slower, with its interval', () => {
    const d = centred(noise(21, 41, 0.09)).map((x) => x - 0.04);
    const [j] = replayLooks([series('a', d)], { ...settings, plannedBlocks: 41 }, true).decided;
    assert.equal(j?.kind, 'slower', `C/B ${j?.relativeQps}, ${j?.low}-${j?.high}, p ${j?.pSlower}`);
    assert.ok(j!.low < 0.95 && j!.high < 1);
  });
  test('beside strong regressions, a test called slower at its Holm level has an upper end under 1', () => {
    // Seven tests fall by 40%, so Holm holds the eighth to alpha, not alpha / 8: its upper end is inverted there too.
    let slower = 0;
    for (let seed = 1; seed < 60; seed++) {
      const strong = Array.from({ length: 7 }, (_, k) =>
        series(
          `s${k}`,
          noise(1000 + k, 41, 0.02).map((x) => x - 0.5),
        ),
      );
      const drop = -0.03 - (seed % 3) * 0.005;
      const moderate = series(
        'm',
        centred(noise(seed, 41, 0.09)).map((x) => x + drop),
      );
      const decided = replayLooks([...strong, moderate], { ...settings, plannedBlocks: 41 }, true).decided;
      for (const j of decided.filter((d) => d.kind === 'slower')) {
        slower += 1;
        assert.ok(j.high < 1, `seed ${seed}: slower with C/B ${j.relativeQps} (${j.low}-${j.high})`);
      }
    }
    assert.ok(slower > 0, 'some tests are called slower');
  });

  test('a hiccup neither cancels a drop nor widens the estimate away from it', () => {
    const d = [...noise(30, 15, 0.01).map((x) => x - 0.1), 2];
    const [j] = replayLooks([series('h', d)], settings, true).decided;
    assert.ok(j!.relativeQps < 0.92, `the estimate keeps the drop: ${j!.relativeQps}`);
    assert.equal(j!.kind, 'regression');
  });
  test('an offset shared by the pairs of a block is not taken for a release effect', () => {
    // Four blocks of four pairs: the pairs agree within a block, the blocks differ by a few percent.
    const offsets = [0.04, -0.03, 0.02, -0.05];
    const d = noise(31, 16, 0.002).map((x, i) => x + offsets[Math.floor(i / 4)]!);
    const blocks = d.map((_, i) => Math.floor(i / 4));
    const [byBlock] = replayLooks([series('b', d, blocks)], settings, true).decided;
    const [byPair] = replayLooks([series('b', d)], settings, true).decided;
    assert.ok(byBlock!.logSe > 1.5 * byPair!.logSe, `${byBlock!.logSe} against ${byPair!.logSe}`);
    assert.equal(byBlock!.kind, 'unstable', 'four blocks say little');
    assert.equal(byBlock!.high, Number.POSITIVE_INFINITY, '1/16 cannot reach alpha');
  });
  test('Holm: a test rejected first lends its share to the others', () => {
    // Eight tests; one drops by far, another by just enough to pass at alpha / 7 but not at alpha / 8.
    const big = series(
      'big',
      noise(40, 16, 0.01).map((x) => x - 0.5),
    );
    const others = Array.from({ length: 6 }, (_, k) => series(`same${k}`, noise(41 + k, 16, 0.05)));
    const edge = series(
      'edge',
      [...Array(15).fill(-0.2), -0.18].map((x, i) => x + (i % 2 ? 0.001 : -0.001)),
    );
    const replay = replayLooks([big, edge, ...others], settings, true);
    const byKey = Object.fromEntries(replay.decided.map((j) => [j.key, j]));
    assert.equal(byKey['big']?.kind, 'regression');
    assert.equal(byKey['edge']?.kind, 'regression');
    assert.ok(byKey['edge']!.alphaSpent > 0.01 / 8, `held against ${byKey['edge']!.alphaSpent}`);
  });
  test('the detectable drop accounts for the threshold, shrinks with pairs, and is 1 where no look can reject', () => {
    const at = (n: number, threshold: number): number => {
      const [j] = replayLooks(
        [
          series(
            'x',
            Array.from({ length: n }, (_, i) => (i % 4 < 2 ? 0.1 : -0.1)),
          ),
        ],
        { ...settings, plannedBlocks: n, thresholdOf: () => threshold },
        true,
      ).decided;
      return j!.detectableDrop;
    };
    assert.ok(at(18, 0.9999) > at(41, 0.9999) && at(41, 0.9999) > at(91, 0.9999));
    // At the threshold's margin the estimate itself is under the threshold only half the time: more is needed.
    assert.ok(at(91, 0.9) > 0.1, `${at(91, 0.9)}`);
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
      const { verdicts } = judgePairedSession(samples, {
        threshold: 0.95,
        testThresholds: {},
        alpha: 0.01,
        plannedBlocks: 8,
      });
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
      const [v] = judgePairedSession(samples, {
        threshold: 0.95,
        testThresholds: {},
        alpha: 0.01,
        plannedBlocks: 8,
      }).verdicts;
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
        { threshold: 0.95, testThresholds: {}, alpha: 0.01, plannedBlocks: 8 },
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
