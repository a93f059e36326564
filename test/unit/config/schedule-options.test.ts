import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-schedule-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(yaml: string): readonly string[] {
  const file = join(dir, 'qpswatch.yaml');
  writeFileSync(file, yaml);
  try {
    loadConfig({ file, env: {}, cwd: dir });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

test('the schedule defaults to hourly at minute 17 in UTC, and the host lock to /run/qpswatch', () => {
  const config = loadConfig({ env: {}, cwd: dir });
  assert.equal(config.schedule, '17 * * * *');
  assert.equal(config.schedule_timezone, 'UTC');
  assert.equal(config.host_lock, '/run/qpswatch/host.lock');
  assert.equal(config.quiet_max_busy_percent, 10);
  assert.deepEqual(config.quiet_governors, []);
});

test('good schedules and time zones load, with seconds or names', () => {
  for (const [schedule, zone] of [
    ['0 3 * * MON-FRI', 'Europe/Berlin'],
    ['*/5 * * * * *', 'America/New_York'],
    ['17 * * * *', 'UTC'],
  ]) {
    assert.deepEqual(problemsOf(`schedule: "${schedule}"\nschedule_timezone: ${zone}\n`), []);
  }
});

test('a bad cron expression names the value and shows an example', () => {
  const file = join(dir, 'qpswatch.yaml');
  for (const bad of ['61 * * * *', 'every hour', '* * *']) {
    assert.deepEqual(problemsOf(`schedule: "${bad}"\n`), [
      `${file}: schedule = ${JSON.stringify(bad)}: expected a cron expression ` +
        `of 5 fields (minute hour day-of-month month day-of-week), e.g. "17 * * ` +
        `* *" for hourly at minute 17`,
    ]);
  }
});

test('a bad time zone names it and the form expected', () => {
  const file = join(dir, 'qpswatch.yaml');
  assert.deepEqual(problemsOf('schedule_timezone: Mars/Olympus\n'), [
    `${file}: schedule_timezone = "Mars/Olympus": expected an IANA time zone name, e.g. UTC or Europe/Berlin`,
  ]);
  assert.deepEqual(problemsOf('schedule_timezone: ""\n'), [
    `${file}: schedule_timezone = "": expected an IANA time zone name, e.g. UTC or Europe/Berlin`,
  ]);
});

test('the environment is checked the same way', () => {
  assert.throws(
    () => loadConfig({ env: { QPSWATCH_SCHEDULE: '99 * * * *' }, cwd: dir }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(
        err.problems[0] ?? '',
        /^environment QPSWATCH_SCHEDULE = "99 \* \* \* \*": expected a cron expression/,
      );
      return true;
    },
  );
});

test('quiet-host limits out of range are refused with the range', () => {
  const file = join(dir, 'qpswatch.yaml');
  assert.deepEqual(problemsOf('quiet_max_busy_percent: 150\n'), [
    `${file}: quiet_max_busy_percent = 150: expected a number from 0 to 100`,
  ]);
  assert.deepEqual(problemsOf('quiet_window_seconds: 0\n'), [
    `${file}: quiet_window_seconds = 0: expected a number of seconds from 0.1 to 600`,
  ]);
});
