import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  calibrateTest,
  calibrationInputs,
  detectableDropAt,
  expectationAtBudget,
  pairNoise,
  pairsForDrop,
  instanceSpread,
  studentQuantile,
} from '../../../src/analysis/index.js';
import type { SampleRecord } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

const close = (actual: number, expected: number, tolerance = 2e-4): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

/**
 * The forecast written out: a session whose budget pays for n blocks (a pair each) has its last look at n, spending
 * alpha x share / T there; DD = 1 - exp(-(max(t(1 - level, n-1) se, m) + t(0.8, n-1) se)),
 * se = sqrt(s^2 + v) / sqrt(n).
 */
function expected(n: number, noise: number, level: number, instanceVariance = 0, margin = 0): number {
  const se = Math.sqrt(Math.max(noise, 0.01) ** 2 + instanceVariance) / Math.sqrt(n);
  const reach = Math.max(studentQuantile(1 - level, n - 1) * se, margin) + studentQuantile(0.8, n - 1) * se;
  return 1 - Math.exp(-reach);
}

describe('detectableDropAt', () => {
  test('one test, 8 blocks: a single look at alpha', () =>
    close(detectableDropAt(8, 0.05, { alpha: 0.01, family: 1, maxPairs: 200 }), expected(8, 0.05, 0.01)));
  test('16 tests, 40 blocks: the last of four looks spends a quarter of alpha / 16', () =>
    close(detectableDropAt(40, 0.03, { alpha: 0.01, family: 16, maxPairs: 200 }), expected(40, 0.03, 0.01 / 4 / 16)));
  test('the spread between instances and the threshold both count', () => {
    const settings = { alpha: 0.01, family: 8, maxPairs: 200, instanceVariance: 0.0008, threshold: 0.95 };
    const level = 0.01 / 4 / 8;
    close(detectableDropAt(60, 0.06, settings), expected(60, 0.06, level, 0.0008, -Math.log(0.95)));
    assert.ok(detectableDropAt(1000, 0.01, settings) > 0.05, 'never under the margin itself');
  });
  test('pairs in blocks: the offsets average over the blocks, the noise over the pairs, blocks - 1 df', () => {
    // 40 pairs in 10 blocks of 4: se^2 = s^2 / 40 + v / 10, one look at 10 blocks (2^-10 <= 0.01).
    const settings = { alpha: 0.01, family: 1, maxPairs: 200, instanceVariance: 0.0008, pairsPerBlock: 4 };
    const se = Math.sqrt(0.05 ** 2 / 40 + 0.0008 / 10);
    const level = 0.01; // one look: 10 blocks are too few for two (8 x 1.3 > 10)
    close(
      detectableDropAt(40, 0.05, settings),
      1 - Math.exp(-(studentQuantile(1 - level, 9) + studentQuantile(0.8, 9)) * se),
      1e-9,
    );
    assert.ok(detectableDropAt(40, 0.05, settings) > detectableDropAt(40, 0.05, { ...settings, pairsPerBlock: 1 }));
  });
  test('too few blocks for the share, fewer than 3, or an unknown noise detect nothing', () => {
    assert.equal(detectableDropAt(9, 0, { alpha: 0.01, family: 8, maxPairs: 200 }), 1, '1/512 > 0.01 / 8');
    assert.equal(detectableDropAt(2, 0.05, { alpha: 0.01, family: 1, maxPairs: 200 }), 1);
    assert.equal(detectableDropAt(10, Number.NaN, { alpha: 0.01, family: 1, maxPairs: 200 }), 1);
  });
});

describe('pairsForDrop (5%)', () => {
  test('the fewest blocks whose forecast reaches 5%, growing with the noise', () => {
    const settings = { alpha: 0.01, family: 16, maxPairs: 200 };
    const at = (noise: number): number | null => pairsForDrop(noise, settings);
    assert.equal(at(0), 11, 'a quiet host: where 16 tests can first reject');
    const n = at(0.05)!;
    assert.ok(detectableDropAt(n, 0.05, settings) <= 0.05 && detectableDropAt(n - 1, 0.05, settings) > 0.05);
    assert.ok(at(0.09)! > n && at(0.5)! > at(0.09)!);
    assert.equal(at(Number.NaN), null);
  });
});

describe('pairNoise', () => {
  const alternating = (n: number): boolean[] => Array.from({ length: n }, (_, i) => i % 2 === 0);
  test("the sd of the log ratios around their order's mean", () => {
    // B C pairs at +-0.03 around 0.02, C B pairs at +-0.03 around -0.02: the order effect is taken out first.
    const logRatios = [0.05, -0.05, -0.01, 0.01, 0.05, -0.05, -0.01, 0.01];
    close(pairNoise({ logRatios, baselineFirst: alternating(8) })!, Math.sqrt((8 * 0.0009) / 6), 1e-12);
  });
  test('a hiccup is clipped around the centre before the sd', () => {
    const quiet = [0.01, -0.01, 0.01, -0.01, 0.01, -0.01];
    assert.ok(pairNoise({ logRatios: [...quiet, -2], baselineFirst: alternating(7) })! < 0.05);
  });
  test('under 3 pairs there is no figure', () =>
    assert.equal(pairNoise({ logRatios: [0.1, 0.2], baselineFirst: [true, false] }), null));
});

describe('calibrateTest', () => {
  test('noise, pairs and minutes for 5%, and the drop of its own pairs', () => {
    const logRatios = [0.05, -0.05, -0.05, 0.05, 0.05, -0.05, -0.05, 0.05];
    const settings = { alpha: 0.01, family: 16, maxPairs: 200 };
    const f = calibrateTest(
      {
        test: 'point-query',
        threads: 1,
        logRatios,
        baselineFirst: logRatios.map((_, i) => i % 2 === 0),
        blocks: logRatios.map((_, i) => i),
        pairSeconds: 6.5,
      },
      settings,
    );
    const noise = Math.sqrt((8 * 0.0025) / 6);
    close(f.noise!, noise, 1e-12);
    assert.equal(f.pairs, 8);
    assert.equal(f.pairsNeeded, pairsForDrop(noise, settings));
    close(f.minutesNeeded!, (f.pairsNeeded! * 6.5) / 60, 1e-12);
    close(f.detectableDrop, detectableDropAt(8, noise, settings), 1e-12);
  });
  test('one pair: no noise, nothing needed can be said', () => {
    const f = calibrateTest(
      { test: 'x', threads: 2, logRatios: [0.1], baselineFirst: [true], blocks: [0], pairSeconds: 2 },
      { alpha: 0.01, family: 1, maxPairs: 200 },
    );
    assert.deepEqual([f.noise, f.pairsNeeded, f.minutesNeeded, f.detectableDrop], [null, null, null, 1]);
  });
});

describe('instanceSpread', () => {
  test('what the blocks spread beyond their pairs: the sd of one instance is the offset between two / sqrt(2)', () => {
    // Six blocks of four pairs: offsets of +-4% between the two instances of a block, pairs +-1% around them.
    const offsets = [0.04, -0.04, 0.04, -0.04, 0.04, -0.04];
    const within = [0.01, -0.01, -0.01, 0.01];
    const logRatios = offsets.flatMap((o) => within.map((w) => o + w));
    const blocks = logRatios.map((_, i) => Math.floor(i / 4));
    const baselineFirst = logRatios.map((_, i) => i % 2 === 0);
    const between = 0.04 ** 2 * (6 / 5);
    const expected = Math.sqrt((between - (4 * 0.0001) / 3 / 4) / 2);
    close(instanceSpread({ logRatios, baselineFirst, blocks })!, expected, 1e-9);
  });
  test('blocks that agree show no spread; under 3 blocks nothing can be said', () => {
    const logRatios = [0.01, -0.01, 0.01, -0.01, 0.01, -0.01];
    const baselineFirst = logRatios.map((_, i) => i % 2 === 0);
    assert.equal(instanceSpread({ logRatios, baselineFirst, blocks: [0, 0, 1, 1, 2, 2] }), 0);
    assert.equal(instanceSpread({ logRatios, baselineFirst, blocks: [0, 0, 0, 1, 1, 1] }), null);
  });
});

describe('expectationAtBudget', () => {
  const figure = (test: string, noise: number | null, pairSeconds: number) => ({
    test,
    threads: 1,
    pairs: 8,
    noise,
    pairSeconds,
    pairsNeeded: null,
    minutesNeeded: null,
    detectableDrop: 1,
  });
  test('the budget pays for whole sweeps of every test', () => {
    const e = expectationAtBudget([figure('a', 0.03, 7), figure('b', 0.09, 8)], 10, 200, {
      alpha: 0.01,
      family: 2,
      maxPairs: 200,
    });
    assert.equal(e.pairs, 40); // 600 s / 15 s
    close(e.minutes, 10, 1e-12);
    close(e.drops[0]!.detectableDrop, detectableDropAt(40, 0.03, { alpha: 0.01, family: 2, maxPairs: 200 }), 1e-12);
    assert.equal(e.drops[1]!.test, 'b');
  });
  test('max_pairs caps the pairs, and the minutes with them', () => {
    const e = expectationAtBudget([figure('a', 0.03, 6)], 60, 50, { alpha: 0.01, family: 1, maxPairs: 200 });
    assert.equal(e.pairs, 50);
    close(e.minutes, 5, 1e-12);
  });
  test("each test's calibrated spread between instances counts, the calibration's median where it has none", () => {
    const settings = { alpha: 0.01, family: 2, maxPairs: 200 };
    const own = { ...figure('a', 0.03, 7), instanceSpread: 0.02 };
    const e = expectationAtBudget([own, figure('b', 0.03, 8)], 10, 200, settings, { suiteSpread: 0.01 });
    close(e.drops[0]!.detectableDrop, detectableDropAt(40, 0.03, { ...settings, instanceVariance: 2 * 0.02 ** 2 }));
    close(e.drops[1]!.detectableDrop, detectableDropAt(40, 0.03, { ...settings, instanceVariance: 2 * 0.01 ** 2 }));
    const without = expectationAtBudget([own], 10, 200, settings).drops[0]!.detectableDrop;
    assert.ok(e.drops[0]!.detectableDrop > detectableDropAt(40, 0.03, settings) - 1e-12 && without > 0);
  });
  test('a restart between blocks: the budget pays for fewer sweeps, as a session spends it', () => {
    // Blocks of 2 sweeps of 15 s, 6 s a restart: (600 + 6) / (30 + 6) = 16 blocks, 32 sweeps, 15 restarts.
    const e = expectationAtBudget(
      [figure('a', 0.03, 7), figure('b', 0.09, 8)],
      10,
      200,
      {
        alpha: 0.01,
        family: 2,
        maxPairs: 200,
      },
      { blocks: { sweepsPerBlock: 2, restartSeconds: 6 } },
    );
    assert.equal(e.pairs, 32);
    close(e.minutes, (32 * 15 + 15 * 6) / 60, 1e-12);
    close(
      e.drops[0]!.detectableDrop,
      detectableDropAt(32, 0.03, { alpha: 0.01, family: 2, maxPairs: 200, pairsPerBlock: 2 }),
      1e-12,
    );
  });
  test('an unknown noise detects nothing', () =>
    assert.equal(
      expectationAtBudget([figure('a', null, 6)], 1, 200, { alpha: 0.01, family: 1, maxPairs: 200 }).drops[0]!
        .detectableDrop,
      1,
    ));
});

describe('calibrationInputs', () => {
  function sample(
    id: number,
    round: number,
    role: 'baseline' | 'candidate',
    test: string,
    qps: number,
    at: number | null,
  ): SampleRecord {
    const { host, ...rest } = sampleInput({ round, role, test, threads: 1, qps, seconds: 3 });
    return {
      ...rest,
      host: host as Record<string, unknown>,
      id,
      sessionId: 1,
      createdAt: at === null ? '' : new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
    };
  }
  test('log ratios by sweep and the median wall time of a pair', () => {
    // Sweep 1: a (B C), b (C B); sweep 2: a (C B), b (B C). Each sample written 3.5 s after the one before, but the
    // second pair of b took longer (4.5 s a half).
    const samples = [
      sample(1, 1, 'baseline', 'a', 100, 0),
      sample(2, 1, 'candidate', 'a', 110, 3.5),
      sample(3, 1, 'candidate', 'b', 50, 7),
      sample(4, 1, 'baseline', 'b', 50, 10.5),
      sample(5, 2, 'candidate', 'a', 90, 14),
      sample(6, 2, 'baseline', 'a', 100, 17.5),
      sample(7, 2, 'baseline', 'b', 40, 22),
      sample(8, 2, 'candidate', 'b', 20, 26.5),
    ];
    const inputs = calibrationInputs(samples);
    assert.deepEqual(
      inputs.map((i) => i.test),
      ['a', 'b'],
    );
    close(inputs[0]!.logRatios[0]!, Math.log(1.1), 1e-12);
    close(inputs[0]!.logRatios[1]!, Math.log(0.9), 1e-12);
    close(inputs[1]!.logRatios[1]!, Math.log(0.5), 1e-12);
    assert.deepEqual(inputs[0]!.baselineFirst, [true, false]);
    assert.deepEqual(inputs[1]!.baselineFirst, [false, true]);
    close(inputs[0]!.pairSeconds, 7, 1e-9); // the first pair has no predecessor for its first half
    close(inputs[1]!.pairSeconds, 8, 1e-9); // median of 7 and 9
  });
  test('without timing a pair is twice the test seconds', () => {
    const inputs = calibrationInputs([
      sample(1, 1, 'baseline', 'a', 100, null),
      sample(2, 1, 'candidate', 'a', 100, null),
    ]);
    assert.equal(inputs[0]!.pairSeconds, 6);
  });
});
