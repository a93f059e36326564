import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressText } from '../../../src/cli/progress-text.js';
import { statusLineText } from '../../../src/cli/status-line.js';
import type { WorkProgress } from '../../../src/model/index.js';
import { sessionProgress } from '../../../src/session/session-progress.js';

/**
 * After the pairs, the instructions lane: the terminal's status line and `qpswatch status` name the counted run and
 * its side, and the time left comes from the lane's runs, not from the spent budget of the sweeps before it.
 */
test('the lane after the pairs: its run, test and side, and the runs left', () => {
  const MIN = 60_000;
  let now = 0;
  const seen: WorkProgress[] = [];
  const suite = { warmup: { seconds: 10 }, loads: [{}], tests: [{ seconds: 20, threads: [1] }] } as never;
  const progress = sessionProgress(
    { design: 'paired', tag: '10.11.9', suite, rounds: 0, budgetMinutes: 8, sweeps: 17 },
    (w) => seen.push(w),
    () => now,
  );
  progress.warmingUp(0);
  now = 1 * MIN;
  progress.testStarts(9, 'update-index', 1, 20);
  now = 9 * MIN;
  progress.counting(3, 8, 'update-index candidate', 75);
  const work = seen.at(-1)!;
  assert.equal(work.kind === 'session' && work.stage, 'instructions');
  assert.equal(work.ratio, 0.25, 'two of eight runs done');
  assert.equal(work.endsAt, new Date(9 * MIN + 75_000).toISOString());
  const at = new Date(9 * MIN);
  assert.equal(statusLineText(work, at), 'instructions 3/8 · update-index candidate · about 1 min left');
  assert.equal(
    progressText(work, at).replace(/, started .*$/, ''),
    'benchmarking "10.11.9": instructions lane, run 3 of 8, "update-index candidate", 25% of the lane, ' +
      "about 1 min left (from the lane's runs so far)",
  );
});
