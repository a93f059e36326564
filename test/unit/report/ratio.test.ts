import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidReportDataError, ratio, ratioOrOne, spreadPercent } from '../../../src/report/index.js';

describe('ratio', () => {
  const cases: [number, number, number | undefined, string][] = [
    [2, 1, 2, 'plain quotient'],
    [1, 4, 0.25, 'below one'],
    [0, 0, 1, '0/0 is 1: a resource neither side used did not change'],
    [5, 0, undefined, 'x/0 is not defined'],
    [0, 5, 0, '0/x is 0'],
    [1e308, 1e-308, undefined, 'an overflowing quotient is not defined'],
  ];
  for (const [numerator, denominator, expected, why] of cases) {
    test(`${numerator} / ${denominator} -> ${String(expected)} (${why})`, () => {
      assert.equal(ratio(numerator, denominator), expected);
    });
  }

  for (const [numerator, denominator] of [
    [Number.NaN, 1],
    [1, Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY, 0],
  ] as const) {
    test(`${numerator} / ${denominator} is refused, not passed on`, () => {
      assert.throws(() => ratio(numerator, denominator), InvalidReportDataError);
    });
  }
});

describe('spreadPercent', () => {
  const cases: [number, number, number, number | undefined][] = [
    [90, 110, 100, 20],
    [100, 100, 100, 0],
    [0, 0, 0, 0],
    [0, 5, 0, undefined],
  ];
  for (const [min, max, median, expected] of cases) {
    test(`min ${min} max ${max} median ${median} -> ${String(expected)}`, () => {
      assert.equal(spreadPercent(min, max, median), expected);
    });
  }

  test('refuses NaN', () => {
    assert.throws(
      () => spreadPercent(0, Number.NaN, 1),
      (error: unknown) => error instanceof InvalidReportDataError && error.path === 'spread max',
    );
  });
});

describe('ratioOrOne', () => {
  const cases: [number, number, number, string][] = [
    [2, 1, 2, 'plain quotient'],
    [0, 0, 1, '0/0 is 1, as in the reference studies'],
    [5, 0, Number.POSITIVE_INFINITY, 'x/0 is infinite (printed inf, JSON null)'],
    [0, 5, 0, '0/x is 0'],
  ];
  for (const [numerator, denominator, expected, why] of cases) {
    test(`${numerator} / ${denominator} -> ${expected} (${why})`, () => {
      assert.equal(ratioOrOne(numerator, denominator), expected);
    });
  }

  test('refuses NaN', () => {
    assert.throws(() => ratioOrOne(Number.NaN, 1), InvalidReportDataError);
  });
});
