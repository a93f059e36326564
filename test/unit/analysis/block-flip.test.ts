import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  blockScores,
  flipPValues,
  holm,
  huberEstimate,
  instanceBlocks,
  orderCorrected,
  SCORE_STEPS,
} from '../../../src/analysis/index.js';

/** Deterministic pseudo-noise in [-size, size]. */
function noise(seed: number, n: number, size: number): number[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return ((a / 2 ** 31) * 2 - 1) * size;
  });
}
const alternating = (n: number): boolean[] => Array.from({ length: n }, (_, i) => i % 2 === 0);

describe('the block sign-flip test', () => {
  test('counts every sign vector exactly: the same share a brute-force walk over all 2^k finds', () => {
    for (const seed of [1, 2, 3]) {
      const values = Float64Array.from(noise(seed, 10, 0.1));
      const blocks = Array.from({ length: 10 }, (_, i) => i);
      const s = blockScores(values, blocks, 0);
      const step = s.scale / SCORE_STEPS;
      const q = Array.from(s.scores, (a) => Math.sign(a) * Math.round(Math.abs(a) / step));
      const observed = q.reduce((a, x) => a + x, 0);
      let atMost = 0;
      for (let mask = 0; mask < 1024; mask++) {
        const sum = q.reduce((a, x, k) => a + ((mask >> k) & 1 ? -x : x), 0);
        if (sum <= observed) atMost++;
      }
      assert.equal(flipPValues(s).less, atMost / 1024);
    }
  });

  test('is exact: over every relabelling of one set of blocks, p <= a in at most a share a', () => {
    // Eight blocks of two pairs, an outlier and an order effect included.
    const d = [0.05, -0.02, 0.09, -2, 0.04, 0.01, 0.07, 0.03, 0.02, -0.06, 0.05, 0.0, -0.01, 0.08, 0.03, 0.04];
    const first = alternating(16);
    const blocks = d.map((_, i) => i >> 1);
    let atMost = 0;
    for (let mask = 0; mask < 256; mask++) {
      const g = (i: number): number => ((mask >> blocks[i]!) & 1 ? -1 : 1);
      const relabelled = {
        logRatios: d.map((x, i) => g(i) * x),
        baselineFirst: first.map((b, i) => (g(i) > 0 ? b : !b)),
      };
      const { values } = orderCorrected(relabelled);
      if (flipPValues(blockScores(values, blocks, 0)).less <= 0.05) atMost++;
    }
    assert.ok(atMost <= 0.05 * 256, `${atMost} of 256 relabellings at p <= 0.05`);
  });

  test('the smallest p-value of k blocks is 2^-k: a clean drop over 10 blocks', () => {
    const values = Float64Array.from(noise(4, 10, 0.01), (x) => x - 0.2);
    const s = blockScores(
      values,
      Array.from(values, (_, i) => i),
      0,
    );
    assert.equal(flipPValues(s).less, 1 / 1024);
    assert.equal(flipPValues(s).greater, 1);
  });
});

describe("Huber's estimate", () => {
  test('a hiccup does not pull the estimate, and the error counts blocks, not pairs', () => {
    const d = [...noise(5, 19, 0.02).map((x) => x - 0.1), 2];
    const perPair = huberEstimate({ logRatios: d, baselineFirst: alternating(20), blocks: d.map((_, i) => i) });
    assert.ok(Math.abs(perPair.estimate - -0.1) < 0.01, `estimate ${perPair.estimate}`);
    assert.equal(perPair.df, 19);
    const twoBlocks = huberEstimate({ logRatios: d, baselineFirst: alternating(20), blocks: d.map((_, i) => i >> 4) });
    assert.equal(twoBlocks.df, 1);
  });
  test('the order effect is taken out: half the difference of the two orders', () => {
    const d = alternating(12).map((bFirst) => -0.05 + (bFirst ? 0.04 : -0.04));
    const e = huberEstimate({ logRatios: d, baselineFirst: alternating(12), blocks: d.map((_, i) => i) });
    assert.ok(Math.abs(e.estimate - -0.05) < 1e-9);
    assert.ok(Math.abs(e.orderEffect - 0.04) < 1e-9);
  });
});

describe('holm', () => {
  test('step-down: each rejection lets the next be held against a larger share', () => {
    assert.deepEqual(
      holm([0.001, 0.004, 0.03, 0.002], 0.01).map((h) => h.rejected),
      [true, true, false, true],
    );
    assert.deepEqual(
      holm([0.004, 0.004], 0.01).map((h) => h.rejected),
      [true, true],
      'the first at 0.005, the second at 0.01',
    );
    assert.deepEqual(
      holm([0.006, 0.001], 0.01).map((h) => h.rejected),
      [true, true],
    );
  });
});

describe('instanceBlocks', () => {
  const sweep = (round: number, runs: number): Array<{ round: number; seconds: number }> =>
    Array.from({ length: runs }, () => ({ round, seconds: 1.0004 }));
  test('a block closes once its instances have measured instance_seconds of runs', () => {
    // 16 runs a sweep, then 4 once most tests are decided; 15 s a block.
    const samples = [...sweep(1, 16), ...sweep(2, 16), ...sweep(3, 4), ...sweep(4, 4), ...sweep(5, 4), ...sweep(6, 4)];
    const { blockOf, closed } = instanceBlocks(samples, 15);
    assert.deepEqual([...blockOf.values()], [0, 1, 2, 2, 2, 2]);
    assert.equal(closed, 3);
  });
  test('sessions stored before restarts: every sweep its own unit, as they were judged', () => {
    const { blockOf, closed } = instanceBlocks([...sweep(1, 2), ...sweep(2, 2)], undefined);
    assert.deepEqual([...blockOf.values()], [0, 1]);
    assert.equal(closed, 2);
  });
});
