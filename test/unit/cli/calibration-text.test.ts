import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCalibration } from '../../../src/cli/calibration-text.js';
import type { CalibrationRecord } from '../../../src/store/index.js';
import { joined } from '../../helpers/pattern.js';

/** Two tests at two levels: quiet pairs at 1 thread, pairs of 25% noise at 2 (a 2-core host). */
function record(): CalibrationRecord {
  const figure = { pairs: 16, pairSeconds: 3, pairsNeeded: 14, minutesNeeded: 0.7, detectableDrop: 0.04 };
  const tests = ['point-query', 'update-index'].flatMap((test) => [
    { test, threads: 1, ...figure, noise: 0.03 },
    { test, threads: 2, ...figure, noise: 0.25, pairsNeeded: null, minutesNeeded: null, detectableDrop: 0.4 },
  ]);
  return {
    id: 1,
    hostId: 1,
    sessionId: 7,
    fingerprintId: 'fp',
    suite: 'matrix',
    target: 'local',
    settings: { alpha: 0.01, drop: 0.05 },
    tests,
    instanceSpread: null,
    createdAt: '2026-12-02T00:00:00Z',
  };
}

test('calibrate: a line per level with its pair noise and reach, and the level too noisy on this host named', () => {
  const drops = record().tests.map((t) => ({
    test: t.test,
    threads: t.threads,
    detectableDrop: t.threads === 1 ? 0.05 : 0.45,
  }));
  const out = renderCalibration({
    record: record(),
    expectation: { budgetMinutes: 12, pairs: 16, minutes: 4, drops },
    minutes: 4,
    sweeps: 16,
    fingerprintId: 'fp',
  });
  assert.match(out, /^level t1: pair noise 3%, expected detectable drop per test 5%\.$/m);
  assert.match(out, /^level t2: pair noise 25%, expected detectable drop per test 45%\.$/m);
  assert.match(
    out,
    joined(
      /^level t2 is too noisy on this host: at a release's budget /,
      /\(16 pairs\) its tests detect drops of 45% \(median above /,
      /10%\); fixes: a quieter host, longer runs \(seconds\), a /,
      /larger budget_minutes, or fewer client threads than the /,
      /cores for it\.$/m,
    ),
  );
  assert.doesNotMatch(out, /level t1 is too noisy/);
});

test('calibrate: one level prints no level lines unless it is too noisy', () => {
  const one = { ...record(), tests: record().tests.filter((t) => t.threads === 1) };
  const drops = one.tests.map((t) => ({ test: t.test, threads: 1, detectableDrop: 0.05 }));
  const out = renderCalibration({
    record: one,
    expectation: { budgetMinutes: 12, pairs: 16, minutes: 4, drops },
    minutes: 4,
    sweeps: 16,
    fingerprintId: 'fp',
  });
  assert.doesNotMatch(out, /^level /m);
});
