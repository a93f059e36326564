import assert from 'node:assert/strict';
import { test } from 'node:test';
import { relativeTime } from '../../../src/cli/relative-time.js';

const now = new Date('2026-12-01T12:00:00.000Z');
const at = (seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();

const CASES: Array<[offsetSeconds: number, expected: string]> = [
  [0, '0 s ago'],
  [-0.4, '0 s ago'],
  [0.4, '0 s ago'],
  [-1, '1 s ago'],
  [-59, '59 s ago'],
  [-60, '1 min ago'],
  [-12 * 60 - 59, '12 min ago'],
  [-59 * 60 - 59, '59 min ago'],
  [-3600, '1 h ago'],
  [-23 * 3600 - 3599, '23 h ago'],
  [-86_400, '1 d ago'],
  [-45 * 86_400, '45 d ago'],
  [30, 'in 30 s'],
  [90, 'in 1 min'],
  [3 * 3600 + 120, 'in 3 h'],
  [2 * 86_400, 'in 2 d'],
];

for (const [offset, expected] of CASES) {
  test(`${offset} s from now reads "${expected}"`, () => assert.equal(relativeTime(at(offset), now), expected));
}

test('a value that is not a time is shown as stored', () => {
  assert.equal(relativeTime('soon', now), 'soon');
});
