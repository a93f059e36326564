import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outcomeLine } from '../../../src/cli/check-command.js';
import type { Verdict } from '../../../src/model/index.js';
import type { CheckResult } from '../../../src/checks/index.js';
import type { ReleaseRecord } from '../../../src/store/index.js';
import { rowVerdict, sampleView } from '../report/sample-view.js';

const release = (id: number, version: string): ReleaseRecord => ({
  id,
  upstream: 'demo',
  flavor: 'mariadb',
  tag: `mariadb-${version}`,
  commit: 'a'.repeat(40),
  version,
  versionKey: version,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  movedFrom: null,
  movedAt: null,
});

/** A check of 10.11.3 against 10.11.2 whose tests got these kinds, stored conclusive as the store would. */
function checked(kinds: Array<Verdict['kind']>, conclusive: boolean): CheckResult {
  const verdicts = kinds.map((kind, i): Verdict => ({
    test: `t${i}`,
    threads: 1,
    relativeQps: 0.97,
    ...rowVerdict(kind),
  }));
  const check = {
    sessionId: 5,
    releaseId: 3,
    baselineReleaseId: 2,
    outcome: 'ok' as const,
    conclusive,
    invalid: false,
    judgedAt: '2026-01-01T00:00:00.000Z',
  };
  return {
    kind: 'checked',
    release: release(3, '10.11.3'),
    baseline: release(2, '10.11.2'),
    against: 'last good',
    sessionId: 5,
    view: sampleView(),
    verdicts,
    check,
    plan: { opened: [], continuing: [], fixed: [] },
    messagesQueued: 0,
  };
}

test('check says inconclusive, which tests kept the release from last good, and what decides them', () => {
  assert.equal(
    outcomeLine(checked(['ok', 'slower', 'unstable'], false)),
    'mariadb-10.11.3 against mariadb-10.11.2: inconclusive; 0 email(s) ' +
      'queued; not last good: undecided t2.t1; slower t1.t1; ' +
      ('qpswatch calibrate says what budget would decide an undecided test ' +
        '(budget_minutes, or the budget_minutes of the upstream), ') +
      'and qpswatch accept mariadb-10.11.3 makes this release last good if a slower test is the new normal',
  );
});

test('a decided check is ok, and says nothing of last good', () => {
  assert.equal(
    outcomeLine(checked(['ok', 'improvement'], true)),
    'mariadb-10.11.3 against mariadb-10.11.2: ok; 0 email(s) queued',
  );
});
