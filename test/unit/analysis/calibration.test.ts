import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  calibrateTest,
  calibrationInputs,
  detectableDropAt,
  expectationAtBudget,
  lookOfPairs,
  pairNoise,
  pairsForDrop,
} from '../../../src/analysis/index.js';
import type { SampleRecord } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

// Reference values from scipy.stats.t (scipy 1.17): DD(n) = 1 - exp(-(t.ppf(1 - alphaLook/T, n-1) + t.ppf(0.8, n-1))
// * max(s, 0.01) / sqrt(n)), look = the first of 8, 12, 18, 27, 41, 61, 91, 137, 200 that is >= n, alphaLook = alpha/2
// at the first look and alpha/16 at each of the 8 others; 1 where 1/min(2^n, 4096) > alphaLook or n < 3.
const close = (actual: number, expected: number, tolerance = 2e-4): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);

describe('lookOfPairs', () => {
  const cases: Array<[number, number]> = [
    [2, 1],
    [8, 1],
    [9, 2],
    [12, 2],
    [13, 3],
    [18, 3],
    [27, 4],
    [28, 5],
    [41, 5],
    [200, 9],
    [500, 9],
  ];
  for (const [n, look] of cases)
    test(`${n} pairs are reached at look ${look}`, () => assert.equal(lookOfPairs(n, 200), look));
});

describe('detectableDropAt', () => {
  const cases: Array<[string, number, number, number, number, number]> = [
    // name, n, noise, alpha, family, expected
    ['8 pairs, 5% noise, one test', 8, 0.05, 0.01, 1, 0.07476],
    ['12 pairs, 3% noise, 16 tests (look 2)', 12, 0.03, 0.01, 16, 0.05857],
    ['27 pairs, 9% noise, 16 tests (look 4)', 27, 0.09, 0.01, 16, 0.09144],
    ['9 pairs at look 2: 512 sign vectors cannot reach alpha/16', 9, 0, 0.01, 1, 1],
    ['2 pairs detect nothing', 2, 0.05, 0.01, 1, 1],
  ];
  for (const [name, n, noise, alpha, family, expected] of cases)
    test(name, () => close(detectableDropAt(n, noise, { alpha, family, maxPairs: 200 }), expected));

  test('fewer than 3 pairs or an unknown noise detect nothing', () => {
    assert.equal(detectableDropAt(1, 0.05, { alpha: 0.01, family: 1, maxPairs: 200 }), 1);
    assert.equal(detectableDropAt(10, Number.NaN, { alpha: 0.01, family: 1, maxPairs: 200 }), 1);
  });
});

describe('pairsForDrop (5%)', () => {
  const cases: Array<[string, number, number, number, number | null]> = [
    ['a quiet host, one test: the first look', 0, 0.01, 1, 8],
    ['1% noise, one test', 0.01, 0.01, 1, 8],
    ['3% noise, 16 tests', 0.03, 0.01, 16, 15],
    ['5% noise, 16 tests', 0.05, 0.01, 16, 29],
    ['4.8% noise, 4 tests', 0.048, 0.01, 4, 24],
    ['9% noise, 16 tests', 0.09, 0.01, 16, 78],
    ['50% noise: thousands', 0.5, 0.01, 16, 2189],
    ['100% noise: thousands more', 1, 0.01, 16, 8734],
    ['unknown noise', Number.NaN, 0.01, 16, null],
  ];
  for (const [name, noise, alpha, family, expected] of cases)
    test(name, () => assert.equal(pairsForDrop(noise, { alpha, family, maxPairs: 200 }), expected));
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
      { test: 'x', threads: 2, logRatios: [0.1], baselineFirst: [true], pairSeconds: 2 },
      { alpha: 0.01, family: 1, maxPairs: 200 },
    );
    assert.deepEqual([f.noise, f.pairsNeeded, f.minutesNeeded, f.detectableDrop], [null, null, null, 1]);
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
