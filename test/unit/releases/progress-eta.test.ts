import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEta, buildProgressReporter } from '../../../src/releases/build-progress.js';
import { sessionProgress } from '../../../src/session/session-progress.js';
import type { BuildWorkProgress, WorkProgress } from '../../../src/model/index.js';

const MIN = 60_000;

test(
  'a build ends when the series last build took, while that is ahead; ' + 'then, or without one, at the rate so far',
  () => {
    const startedAt = 0;
    // 10 min into a build of a series whose last build took 30 min: 20 min left.
    assert.deepEqual(
      buildEta({ startedAt, now: 10 * MIN, lastBuildSeconds: 1800, ratio: 0.1, compileStartedAt: MIN }),
      {
        endsAt: 30 * MIN,
        etaFrom: 'last_build',
      },
    );
    // 40 min in, past the last build's 30: the compile ran 30 min for 75%, so 10 min more.
    assert.deepEqual(
      buildEta({ startedAt, now: 40 * MIN, lastBuildSeconds: 1800, ratio: 0.75, compileStartedAt: 10 * MIN }),
      { endsAt: 50 * MIN, etaFrom: 'rate' },
    );
    // No earlier build: 25% in 5 min of compile, 15 min more.
    assert.deepEqual(
      buildEta({ startedAt, now: 6 * MIN, lastBuildSeconds: null, ratio: 0.25, compileStartedAt: MIN }),
      {
        endsAt: 21 * MIN,
        etaFrom: 'rate',
      },
    );
    // Too little done to say, and nothing before: unknown.
    assert.deepEqual(buildEta({ startedAt, now: MIN, lastBuildSeconds: null, ratio: 0.01, compileStartedAt: 0 }), {
      endsAt: null,
      etaFrom: null,
    });
    assert.deepEqual(buildEta({ startedAt, now: MIN, lastBuildSeconds: null, ratio: 0, compileStartedAt: null }), {
      endsAt: null,
      etaFrom: null,
    });
  },
);

test('the build reporter turns the steps and [n/m] into progress: 0 while configuring, 1 from the install on', () => {
  let now = 0;
  const seen: BuildWorkProgress[] = [];
  const report = buildProgressReporter(
    'mariadb-10.11.2',
    null,
    (w) => seen.push(w),
    () => now,
  );
  const argv: string[] = [];
  report({ phase: 'configure', event: 'start', argv });
  now = MIN;
  report({ phase: 'build', event: 'start', argv });
  now = 3 * MIN;
  report({ phase: 'build', event: 'progress', argv, compile: { done: 50, total: 100, ratio: 0.5 } });
  report({ phase: 'build', event: 'end', argv, durationMs: 2 * MIN });
  report({ phase: 'install', event: 'start', argv });
  assert.deepEqual(
    seen.map((w) => [w.step, w.ratio, w.done, w.total]),
    [
      ['configure', 0, null, null],
      ['build', 0, null, null],
      ['build', 0.5, 50, 100],
      ['build', 1, 50, 100],
      ['install', 1, 50, 100],
    ],
  );
  assert.equal(seen[2]!.endsAt, new Date(5 * MIN).toISOString());
  assert.equal(seen[2]!.etaFrom, 'rate');
});

test('a paired session spends its budget from the first pair; whole runs count planned test seconds', () => {
  let now = 0;
  const suite = {
    warmup: { seconds: 10 },
    loads: [{}],
    tests: [
      { seconds: 20, threads: [1, 8] },
      { seconds: 30, threads: [1] },
    ],
  } as never;
  const paired: WorkProgress[] = [];
  const p = sessionProgress(
    { design: 'paired', tag: 'c', suite, rounds: 3, budgetMinutes: 10 },
    (w) => paired.push(w),
    () => now,
  );
  p.loading();
  now = 5 * MIN;
  p.warmingUp(0);
  now = 6 * MIN;
  p.testStarts(1, 'oltp_read_only', 1, 20);
  now = 11 * MIN;
  p.testStarts(3, 'oltp_read_only', 8, 20);
  assert.deepEqual(
    paired.map((w) => [w.kind === 'session' && w.stage, w.ratio, w.endsAt]),
    [
      ['loading', 0, null],
      ['warm-up', 0, null],
      ['measuring', 0, new Date(16 * MIN).toISOString()],
      ['measuring', 0.5, new Date(16 * MIN).toISOString()],
    ],
  );
  // Whole runs: 2 rounds x 2 targets x (10 + 20 x 2 + 30) = 320 planned seconds.
  now = 0;
  const runs: WorkProgress[] = [];
  const r = sessionProgress(
    { design: 'runs', tag: 'c', suite, rounds: 2, budgetMinutes: 10 },
    (w) => runs.push(w),
    () => now,
  );
  r.warmingUp(1);
  now = 20_000;
  r.testStarts(1, 'a', 1, 20);
  now = 60_000;
  r.testStarts(1, 'a', 8, 20);
  const last = runs.at(-1)!;
  assert.equal(last.ratio, 30 / 320);
  // 30 planned seconds took 60: the 290 left at that pace.
  assert.equal(last.endsAt, new Date(60_000 + 290 * 2 * 1000).toISOString());
  assert.equal(last.kind === 'session' && last.rounds, 2);
});
