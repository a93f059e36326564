import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needsCatchUp, pollIntervalMs } from '../../../src/daemon/index.js';

const HOUR = 3_600_000;

test('the poll interval is the distance between the next two runs', () => {
  assert.equal(pollIntervalMs('17 * * * *', 'UTC'), HOUR);
  assert.equal(pollIntervalMs('*/5 * * * *', 'Europe/Berlin'), 5 * 60_000);
  assert.equal(pollIntervalMs('0 3 * * *', 'America/New_York') >= 23 * HOUR, true, 'daily, give or take a DST change');
  assert.equal(pollIntervalMs('*/10 * * * * *', 'UTC'), 10_000);
});

test('catch-up: a start with no poll ever, or one older than one interval, polls at once', () => {
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  const cases: Array<[string | null, boolean]> = [
    [null, true],
    ['2026-03-01T11:30:00.000Z', false],
    ['2026-03-01T11:00:00.001Z', false],
    ['2026-03-01T11:00:00.000Z', true],
    ['2026-02-28T12:00:00.000Z', true],
    ['garbage', true],
  ];
  for (const [last, expected] of cases) assert.equal(needsCatchUp(last, now, HOUR), expected, `last poll ${last}`);
});

test('catch-up with a fake clock: the same last poll is fresh, then due as the clock moves past one interval', () => {
  const last = '2026-03-01T12:00:00.000Z';
  let clock = Date.parse(last);
  const due = () => needsCatchUp(last, clock, 5 * 60_000);
  assert.equal(due(), false);
  clock += 4 * 60_000;
  assert.equal(due(), false);
  clock += 60_000;
  assert.equal(due(), true);
});
