import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, parseVersion, versionKey, VersionParseError } from '../../../src/version/index.js';

describe('parseVersion', () => {
  const good: Array<[string, number, number, number, number[], string]> = [
    ['10.11.9', 10, 11, 9, [], '10.11.9'],
    ['8.0.36', 8, 0, 36, [], '8.0.36'],
    ['8.0.36-28', 8, 0, 36, [28], '8.0.36-28'],
    ['5.6.51', 5, 6, 51, [], '5.6.51'],
    ['5.6.51-91.0', 5, 6, 51, [91, 0], '5.6.51-91.0'],
    [' 10.6.17 ', 10, 6, 17, [], '10.6.17'],
  ];
  for (const [text, major, minor, patch, build, canonical] of good) {
    test(`"${text}"`, () => {
      assert.deepEqual(parseVersion(text), { major, minor, patch, build, text: canonical });
    });
  }

  const bad = [
    '',
    '10.11',
    '10.11.x',
    'v8.0.36',
    '8.0.36-',
    '8.0.36-MariaDB',
    '8.0.36.1',
    '1000.0.0',
    '8.0.36-abc',
    'mariadb-10.11.9',
  ];
  for (const text of bad) {
    test(`rejects "${text}" naming the text and the expected form`, () => {
      assert.throws(
        () => parseVersion(text),
        (err: unknown) =>
          err instanceof VersionParseError &&
          err.text === text &&
          err.message.includes(`"${text}"`) &&
          err.message.includes('MAJOR.MINOR.PATCH'),
      );
    });
  }
});

describe('compareVersions', () => {
  const cases: Array<[string, string, number]> = [
    ['10.11.10', '10.11.9', 1],
    ['10.11.9', '10.11.10', -1],
    ['10.2.44', '10.11.1', -1],
    ['8.0.36-27', '8.0.36-28', -1],
    ['8.0.36-28', '8.0.36', 1],
    ['8.0.36', '8.0.36-0', 0],
    ['5.6.51-91.0', '5.6.51-91', 0],
    ['5.6.51-91.1', '5.6.51-91', 1],
    ['5.7.44', '8.0.0', -1],
    ['10.11.9', '10.11.9', 0],
  ];
  for (const [a, b, expected] of cases) {
    test(`${a} vs ${b} = ${expected}`, () => {
      assert.equal(compareVersions(parseVersion(a), parseVersion(b)), expected);
    });
  }

  test('sorts a list numerically', () => {
    const sorted = ['10.11.10', '10.2.44', '10.11.9', '10.6.17', '10.11.10-1'].map(parseVersion).sort(compareVersions);
    assert.deepEqual(
      sorted.map((v) => v.text),
      ['10.2.44', '10.6.17', '10.11.9', '10.11.10', '10.11.10-1'],
    );
  });
});

describe('versionKey', () => {
  const cases: Array<[string, string]> = [
    ['10.11.9', '010.011.009.000'],
    ['8.0.36-28', '008.000.036.028'],
    ['5.6.51', '005.006.051.000'],
    ['5.6.51-91.0', '005.006.051.091'],
    ['5.6.51-91.2', '005.006.051.091.002'],
  ];
  for (const [text, key] of cases) {
    test(`${text} -> ${key}`, () => assert.equal(versionKey(parseVersion(text)), key));
  }

  test('text order of keys is version order', () => {
    const texts = [
      '10.11.10',
      '10.11.9',
      '8.0.36-28',
      '8.0.36-27',
      '8.0.36',
      '5.6.51-91.2',
      '5.6.51-91',
      '10.2.44',
      '10.11.10-1',
    ];
    const byKey = [...texts].sort((a, b) => {
      const ka = versionKey(parseVersion(a));
      const kb = versionKey(parseVersion(b));
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    const byVersion = [...texts].sort((a, b) => compareVersions(parseVersion(a), parseVersion(b)));
    assert.deepEqual(byKey, byVersion);
  });
});
