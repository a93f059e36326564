import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  binomial,
  maxTPermutationTest,
  roundsForAlpha,
  smallestPValue,
  type Run,
} from '../../../src/analysis/permutation.js';

function runs(...rows: Array<Record<string, number>>): Run[] {
  return rows.map((r) => new Map(Object.entries(r)));
}

describe('maxTPermutationTest', () => {
  test('a clear drop on one test gets the smallest p-value the runs allow', () => {
    const b = runs({ w: 1000, r: 500 }, { w: 1010, r: 505 }, { w: 990, r: 495 }, { w: 1005, r: 498 });
    const c = runs({ w: 800, r: 501 }, { w: 810, r: 499 }, { w: 790, r: 503 }, { w: 805, r: 497 });
    const result = maxTPermutationTest(b, c);
    assert.equal(result.permutations, 70);
    assert.equal(result.exhaustive, true);
    assert.equal(result.slower.get('w'), 1 / 70);
    assert.ok(result.slower.get('r')! > 0.5);
    assert.ok(result.faster.get('w')! > 0.5);
  });

  test('the same numbers on both sides are never significant', () => {
    const same = runs({ a: 100, b: 200 }, { a: 110, b: 190 }, { a: 90, b: 210 });
    const result = maxTPermutationTest(same, same);
    for (const p of [...result.slower.values(), ...result.faster.values()]) assert.ok(p > 0.3, String(p));
  });

  test('an improvement shows in faster, not slower', () => {
    const b = runs({ x: 100 }, { x: 101 }, { x: 99 }, { x: 100 }, { x: 102 });
    const c = runs({ x: 130 }, { x: 131 }, { x: 129 }, { x: 128 }, { x: 132 });
    const result = maxTPermutationTest(b, c);
    assert.equal(result.faster.get('x'), 1 / 252);
    assert.equal(result.slower.get('x'), 1);
  });

  test('many runs are sampled with a fixed seed, so verdicts are reproducible', () => {
    const b = runs(...Array.from({ length: 10 }, (_, i) => ({ x: 100 + (i % 3) })));
    const c = runs(...Array.from({ length: 10 }, (_, i) => ({ x: 99 + (i % 4) })));
    const first = maxTPermutationTest(b, c);
    assert.equal(first.exhaustive, false);
    assert.deepEqual(maxTPermutationTest(b, c).slower, first.slower);
  });

  test('binomial', () => {
    assert.deepEqual([binomial(4, 2), binomial(8, 4), binomial(10, 5), binomial(20, 10)], [6, 70, 252, 184756]);
  });
});

describe('smallestPValue', () => {
  test('one over the relabelings counted: every split of the runs, then the drawn ones', () => {
    assert.equal(smallestPValue(1), 1 / 2);
    assert.equal(smallestPValue(2), 1 / 6);
    assert.equal(smallestPValue(5), 1 / 252);
    assert.equal(smallestPValue(9), 1 / 20_000, '48,620 splits: 20,000 drawn');
  });

  test('it is what a clean drop gets', () => {
    const b = runs({ x: 100 }, { x: 101 }, { x: 99 });
    const c = runs({ x: 50 }, { x: 51 }, { x: 49 });
    assert.equal(maxTPermutationTest(b, c).slower.get('x'), smallestPValue(3));
  });

  test('the fewest rounds that reach alpha', () => {
    assert.equal(roundsForAlpha(0.01), 5);
    assert.equal(roundsForAlpha(0.05), 3);
    assert.equal(roundsForAlpha(0.2), 2);
    assert.equal(roundsForAlpha(1e-6), undefined);
  });
});
