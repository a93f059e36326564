import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BenchDataError,
  bootstrapInterval,
  judgeGoal,
  medianPairRatio,
  middleHalfSpread,
  quantile,
  ratioOfMedians,
  seededRandom,
  type RunPair,
} from '../../../scripts/bench/stats.js';

const pairs = (rows: [number, number][]): RunPair[] => rows.map(([without, w]) => ({ without, with: w }));

describe('bench stats', () => {
  test('ratioOfMedians is median(with) / median(without), as compare reports', () => {
    assert.equal(
      ratioOfMedians(
        pairs([
          [100, 99],
          [200, 198],
          [150, 150],
        ]),
      ),
      150 / 150,
    );
    assert.equal(
      ratioOfMedians(
        pairs([
          [100, 90],
          [110, 100],
        ]),
      ),
      95 / 105,
    );
  });

  test('medianPairRatio is the median of the pair ratios, not a ratio of medians', () => {
    assert.equal(
      medianPairRatio(
        pairs([
          [100, 99],
          [200, 202],
          [1000, 950],
        ]),
      ),
      0.99,
    );
    assert.equal(
      medianPairRatio(
        pairs([
          [100, 90],
          [100, 110],
        ]),
      ),
      1,
    );
    // A burst of other work that halved one run does not drag the estimate.
    assert.equal(
      medianPairRatio(
        pairs([
          [100, 99],
          [100, 99],
          [100, 99],
          [50, 100],
        ]),
      ),
      0.99,
    );
  });

  test('a pair with zero, negative or non-finite QPS is an error naming the pair', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(
        () =>
          ratioOfMedians(
            pairs([
              [100, 100],
              [100, bad],
            ]),
          ),
        (err: unknown) => err instanceof BenchDataError && err.index === 1 && /run pair 2/.test(err.message),
      );
    }
    assert.throws(() => medianPairRatio([]), RangeError);
  });

  test('seededRandom repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const seq = Array.from({ length: 1000 }, () => a());
    assert.deepEqual(
      seq,
      Array.from({ length: 1000 }, () => b()),
    );
    assert.ok(seq.every((v) => v >= 0 && v < 1));
    assert.notDeepEqual(seq.slice(0, 5), Array.from({ length: 5 }, seededRandom(8)));
  });

  test('bootstrapInterval brackets the estimate and is the same on every call', () => {
    const data = pairs([
      [1000, 995],
      [1010, 1003],
      [990, 992],
      [1005, 990],
      [998, 1001],
      [1002, 996],
      [995, 989],
      [1008, 1004],
    ]);
    const ci = bootstrapInterval(data, medianPairRatio);
    const estimate = medianPairRatio(data);
    assert.ok(ci.low <= estimate && estimate <= ci.high, `${ci.low} <= ${estimate} <= ${ci.high}`);
    assert.ok(ci.high - ci.low < 0.02);
    assert.deepEqual(bootstrapInterval(data, medianPairRatio), ci);
  });

  test('bootstrapInterval of identical pairs has no width', () => {
    const ci = bootstrapInterval(
      pairs([
        [100, 98],
        [100, 98],
        [100, 98],
      ]),
      ratioOfMedians,
    );
    assert.deepEqual(ci, { low: 0.98, high: 0.98 });
  });

  test('bootstrapInterval rejects too few resamples and a confidence outside (0, 1)', () => {
    const data = pairs([
      [100, 100],
      [100, 101],
    ]);
    assert.throws(
      () => bootstrapInterval(data, ratioOfMedians, { resamples: 10 }),
      /resamples must be a whole number >= 100, got 10/,
    );
    assert.throws(
      () => bootstrapInterval(data, ratioOfMedians, { confidence: 1 }),
      /confidence must be between 0 and 1, got 1/,
    );
  });

  test('judgeGoal says met, missed, or within noise', () => {
    const cases: [number, number, ReturnType<typeof judgeGoal>][] = [
      [0.995, 1.004, 'met'],
      [0.99, 1.0, 'met'],
      [0.98, 0.989, 'missed'],
      [0.985, 1.001, 'within noise'],
    ];
    for (const [low, high, want] of cases) assert.equal(judgeGoal({ low, high }, 0.99), want, `${low} .. ${high}`);
  });

  test('quantile interpolates between neighbours and rejects p outside [0, 1]', () => {
    const cases: [number[], number, number][] = [
      [[3, 1, 2], 0, 1],
      [[3, 1, 2], 1, 3],
      [[3, 1, 2], 0.5, 2],
      [[1, 2, 3, 4], 0.25, 1.75],
      [[5], 0.9, 5],
    ];
    for (const [values, p, want] of cases) assert.equal(quantile(values, p), want, `${values} @ ${p}`);
    assert.throws(() => quantile([1], 1.5), /between 0 and 1, got 1.5/);
    assert.throws(() => quantile([], 0.5), RangeError);
  });

  test('middleHalfSpread is half the interquartile range over the median', () => {
    assert.equal(middleHalfSpread([90, 95, 100, 105, 110]), 0.05);
    assert.equal(middleHalfSpread([7, 7, 7]), 0);
    assert.throws(() => middleHalfSpread([0, 0, 0]), /positive median, got 0/);
  });
});
