import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatConfidence,
  formatDropPercent,
  formatInterval,
  formatPercent,
  formatRange,
  formatRatio,
  formatRelative,
  formatSignificant,
  InvalidReportDataError,
} from '../../../src/report/index.js';

describe('formatSignificant', () => {
  const cases: [number, number, string][] = [
    [0, 3, '0'],
    [0.000312, 3, '0.000312'],
    [0.00031249, 3, '0.000312'],
    [0.0003125, 3, '0.000313'],
    [5.1, 3, '5.1'],
    [5.12345, 3, '5.12'],
    [0.003, 3, '0.003'],
    [1, 3, '1'],
    [24.96, 3, '25'],
    [9.996, 3, '10'],
    [99.96, 3, '100'],
    [123.4, 3, '123'],
    [999.5, 3, '1000'],
    [12345.4, 3, '12345'],
    [12345.6, 3, '12346'],
    [1e-7, 3, '0.0000001'],
    [1.23456e-5, 3, '0.0000123'],
    [-0.5, 3, '-0.5'],
    [-1234.4, 3, '-1234'],
    [5.12345, 2, '5.1'],
    [5.12345, 5, '5.1235'],
  ];
  for (const [value, digits, expected] of cases) {
    test(`${value} with ${digits} digits -> ${expected}`, () => {
      assert.equal(formatSignificant(value, digits), expected);
    });
  }

  for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`${value} is refused`, () => {
      assert.throws(() => formatSignificant(value), InvalidReportDataError);
    });
  }
});

describe('formatRatio', () => {
  const cases: [number | undefined, string][] = [
    [undefined, '-'],
    [1, '1.00'],
    [0.9558, '0.96'],
    [1.0402, '1.04'],
    [0, '0.00'],
    [12.345, '12.35'],
  ];
  for (const [value, expected] of cases) {
    test(`${String(value)} -> ${expected}`, () => {
      assert.equal(formatRatio(value), expected);
    });
  }

  test('NaN is refused', () => {
    assert.throws(() => formatRatio(Number.NaN), InvalidReportDataError);
  });
});

describe('formatPercent and formatRange', () => {
  test('percent has one decimal, undefined prints "-"', () => {
    assert.equal(formatPercent(2.187), '2.2%');
    assert.equal(formatPercent(0), '0.0%');
    assert.equal(formatPercent(undefined), '-');
  });

  test('range joins min and max formatted alike', () => {
    assert.equal(formatRange(12210.2, 12480.7), '12210-12481');
    assert.equal(formatRange(0.5, 0.75), '0.5-0.75');
  });
});

describe('formatRelative', () => {
  const cases: [number | undefined, string][] = [
    [undefined, '-'],
    [1, '1.00'],
    [0.91, '0.91'],
    [Number.POSITIVE_INFINITY, 'inf'],
  ];
  for (const [value, expected] of cases) {
    test(`${String(value)} -> ${expected}`, () => {
      assert.equal(formatRelative(value), expected);
    });
  }

  test('NaN is refused', () => {
    assert.throws(() => formatRelative(Number.NaN), InvalidReportDataError);
  });
});

describe('formatDropPercent: whole percents rounded up, so a stated bound stays true', () => {
  const cases: [number, string][] = [
    [0.04, '4%'],
    [0.0388, '4%'],
    [0.0401, '5%'],
    [1 - 0.95, '5%'],
    [1 - 0.97, '3%'],
    [0, '0%'],
    [-0.02, '0%'],
    [1, '100%'],
  ];
  for (const [value, expected] of cases)
    test(`${value} -> ${expected}`, () => assert.equal(formatDropPercent(value), expected));

  test('NaN is refused', () => assert.throws(() => formatDropPercent(Number.NaN), InvalidReportDataError));
});

describe('formatInterval and formatConfidence', () => {
  test('two decimals each end; inf for an interval without an upper end', () => {
    assert.equal(formatInterval(0.9612, 1.034), '0.96-1.03');
    assert.equal(formatInterval(0, null), '0.00-inf');
  });

  test('a confidence as a percent without needless decimals', () => {
    assert.equal(formatConfidence(0.95), '95%');
    assert.equal(formatConfidence(0.975), '97.5%');
  });
});
