import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureMessage } from '../../../src/checks/alert-messages.js';
import { errorLinesOf, isDue, nextAttemptAt } from '../../../src/daemon/retry-policy.js';
import type { ReleaseRecord } from '../../../src/store/index.js';
import type { Upstream } from '../../../src/upstream/index.js';

const NOW = new Date('2026-01-02T03:00:00.000Z');
const at = (minutes: number): string => new Date(NOW.getTime() + minutes * 60_000).toISOString();

describe('the retry policy of failed builds and sessions', () => {
  test('attempts and backoff: 30 min, then doubling, and none after the last attempt allowed', () => {
    const settings = { attempts: 4, backoffMinutes: 30 };
    const cases: Array<[failures: number, next: string | undefined]> = [
      [1, at(30)],
      [2, at(60)],
      [3, at(120)],
      [4, undefined],
      [5, undefined],
    ];
    for (const [failures, next] of cases)
      assert.equal(nextAttemptAt(failures, settings, NOW), next, `after failure ${failures}`);
    assert.equal(nextAttemptAt(1, { attempts: 1, backoffMinutes: 30 }, NOW), undefined, 'retry_attempts 1: no retry');
    assert.equal(
      nextAttemptAt(1, { attempts: 3, backoffMinutes: 0 }, NOW),
      NOW.toISOString(),
      'backoff 0: the next cycle',
    );
    assert.equal(
      nextAttemptAt(19, { attempts: 20, backoffMinutes: 10080 }, NOW) !== undefined,
      true,
      'the largest settings stay a valid time',
    );
  });

  test('a row is taken once its next attempt is due', () => {
    assert.equal(isDue({ nextAttemptAt: null }, NOW), true);
    assert.equal(isDue({ nextAttemptAt: at(-1) }, NOW), true);
    assert.equal(isDue({ nextAttemptAt: NOW.toISOString() }, NOW), true);
    assert.equal(isDue({ nextAttemptAt: at(1) }, NOW), false);
  });

  test('the error lines are the last non-empty lines of the error', () => {
    assert.deepEqual(errorLinesOf(new Error('first\n\nsecond\nthird'), 2), ['second', 'third']);
    assert.deepEqual(errorLinesOf('plain'), ['plain']);
  });
});

describe('the "could not build" and "could not measure" emails', () => {
  const upstream = { name: 'mariadb-10.11', flavor: 'mariadb' } as Upstream;
  const release = { id: 7, upstream: 'mariadb-10.11', tag: 'mariadb-10.11.4', version: '10.11.4' } as ReleaseRecord;
  const alerts = { emailTo: ['dba@example.org'], emailFrom: 'qpswatch@example.org', grafanaUrl: '' };
  const input = {
    alerts,
    upstream,
    release,
    attempts: 1,
    queueAttempts: 1,
    repeats: true,
    errorLines: [
      "launcher.c:9: error: expected ';' before '}' <script>alert(1)</script>",
      '\u001b]0;pwned\u0007\u001b[2J',
    ],
  };

  test("one message per give-up: its event key names the release and the queue row's attempts", () => {
    const build = failureMessage({ ...input, kind: 'could-not-build' })!;
    assert.equal(build.subject, 'qpswatch: could not build mariadb-10.11.4');
    assert.equal(build.eventKey, 'could-not-build/mariadb-10.11/mariadb-10.11.4/attempt-1');
    assert.equal(build.messageId, '<qpswatch.could-not-build.release-7.attempt-1@example.org>');
    const measure = failureMessage({
      ...input,
      kind: 'could-not-measure',
      attempts: 3,
      queueAttempts: 5,
      repeats: false,
    })!;
    assert.equal(measure.subject, 'qpswatch: could not measure mariadb-10.11.4');
    assert.equal(measure.eventKey, 'could-not-measure/mariadb-10.11/mariadb-10.11.4/attempt-5');
    assert.match(measure.text, /failed after 3 attempts; that was the last attempt retry_attempts allows/);
    assert.equal(
      failureMessage({ ...input, kind: 'could-not-build', alerts: { ...alerts, emailTo: [] } }),
      undefined,
      'nobody to email: no message',
    );
  });

  test('the error lines are data: escaped in HTML, control characters shown, never acted on', () => {
    const m = failureMessage({ ...input, kind: 'could-not-build' })!;
    assert.match(m.text, /a compiler or cmake error fails the same way every time/);
    assert.ok(!m.html.includes('<script>'), 'no markup from the compiler');
    assert.match(m.html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    for (const part of [m.text, m.html])
      assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(part), 'no escape sequence reaches the reader');
    assert.match(m.text, /\\x1b\]0;pwned\\x07\\x1b\[2J/);
  });
});
