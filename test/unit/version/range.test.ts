import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseVersion, parseVersionRange, rangeIncludes, VersionRangeError } from '../../../src/version/index.js';

describe('rangeIncludes', () => {
  const cases: Array<[string, string, boolean]> = [
    ['>=8.0.30 <8.1', '8.0.30', true],
    ['>=8.0.30 <8.1', '8.0.29', false],
    ['>=8.0.30 <8.1', '8.0.36-28', true],
    ['>=8.0.30 <8.1', '8.1.0', false],
    ['>= 8.0.30 < 8.1', '8.0.40', true],
    ['10.11', '10.11.9', true],
    ['10.11', '10.11.10', true],
    ['10.11', '10.1.9', false],
    ['10.11', '10.6.17', false],
    ['=10.11', '10.11.0', true],
    ['<=8.0', '8.0.99', true],
    ['<=8.0', '8.1.0', false],
    ['>8.0', '8.0.99', false],
    ['>8.0', '8.1.0', true],
    ['<8.0.30', '8.0.29', true],
    ['<8.0.30', '8.0.30', false],
    ['=8.0.36', '8.0.36-28', true],
    ['>8.0.36', '8.0.36-28', false],
    ['<=8.0.36', '8.0.36-28', true],
    ['>=8.0.36-28', '8.0.36-27', false],
    ['>=8.0.36-28', '8.0.36-28', true],
    ['=8.0.36-28', '8.0.36', false],
    ['>=10.4', '10.11.9', true],
    ['>=10.4', '10.3.39', false],
    ['<10.5', '10.4.33', true],
    ['<10.5', '10.5.0', false],
    ['>=5.7 <8', '5.7.44', true],
    ['>=5.7 <8', '8.0.0', false],
    ['8', '8.4.0', true],
    ['8', '10.11.9', false],
  ];
  for (const [range, version, expected] of cases) {
    test(`"${range}" ${expected ? 'includes' : 'excludes'} ${version}`, () => {
      assert.equal(rangeIncludes(parseVersionRange(range), parseVersion(version)), expected);
    });
  }
});

describe('parseVersionRange', () => {
  test('keeps each comparator with its operator and bound', () => {
    const range = parseVersionRange(' >=8.0.30  <8.1 ');
    assert.equal(range.text, '>=8.0.30  <8.1');
    assert.deepEqual(
      range.comparators.map((c) => [c.op, c.bound]),
      [
        ['>=', [8, 0, 30]],
        ['<', [8, 1]],
      ],
    );
  });

  const bad: Array<[string, string]> = [
    ['', ''],
    ['>=8.0.x', '>=8.0.x'],
    ['~8.0', '~8.0'],
    ['>=8.0.30 || <5.7', '||'],
    ['>=8.0-28', '>=8.0-28'],
    ['=>8.0', '=>8.0'],
    ['>=1000', '>=1000'],
  ];
  for (const [text, part] of bad) {
    test(`rejects "${text}" naming the part and the expected form`, () => {
      assert.throws(
        () => parseVersionRange(text),
        (err: unknown) =>
          err instanceof VersionRangeError &&
          err.text === text &&
          err.part === part &&
          err.message.includes('">=8.0.30 <8.1"'),
      );
    });
  }
});
