import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { after, before, describe, mock, test } from 'node:test';
import { ServerDiedError } from '../../../src/server/index.js';
import { DataChangingTestError, MeasureFailedError, runPairedSession } from '../../../src/session/index.js';
import { parseSysbenchOutput, SysbenchOutputError, type SuiteTest } from '../../../src/suite/index.js';
import {
  fakeContext,
  fakeParts,
  fakeSample,
  fakeSuite,
  fakeTest,
  PIDS,
  plan,
  WARN,
  type FakeParts,
} from './fake-session-parts.js';

/** Deterministic pseudo-noise in [-size, size]: the same numbers on every run. */
function noise(seed: number, size: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return ((a / 2 ** 31) * 2 - 1) * size;
  };
}

/** Both sides stopped once each: the session leaves no server behind, however it ends. */
function assertBothClosed(parts: FakeParts): void {
  assert.equal(parts.servers.baseline?.closed, 1, 'baseline stopped');
  assert.equal(parts.servers.candidate?.closed, 1, 'candidate stopped');
}

describe('runPairedSession with fake parts', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'qpswatch-paired-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  test('every test decided: a 40% drop and a tie end the session at the first look that can decide', async () => {
    const jitter = noise(3, 0.01);
    const parts = fakeParts({
      measure: (input) => {
        const drop = input.role === 'candidate' && input.test.name === 'write' ? 0.6 : 1;
        return Promise.resolve(fakeSample(input, 1000 * drop * (1 + jitter())));
      },
    });
    const { ctx, stored, lines } = fakeContext();
    const outcome = await runPairedSession(fakeSuite([fakeTest('read'), fakeTest('write')]), parts, plan(), ctx);
    assert.equal(outcome.stoppedBy, 'decided');
    assert.equal(outcome.sweeps, 10, 'the first look where two tests can reject is at 10 blocks');
    assert.equal(outcome.instances, 10, 'new instances every sweep (instance_seconds 0)');
    assert.equal(outcome.drainTimeouts, 0);
    assert.equal(stored.length, 10 * 2 * 2, 'two tests, two sides, ten sweeps');
    assert.deepEqual(parts.loaded, ['baseline', 'candidate']);
    assert.equal(parts.warmedUp.length, 2 * 10, 'the first warm-up, then a brief one after each restart');
    // One look, where the plan puts it: no line for the blocks before it, where no look is taken.
    const looks = lines.filter((l) => l.msg.startsWith('look at'));
    assert.deepEqual(
      looks.map((l) => l.msg),
      ['look at 10 blocks: 2 of 2 open test(s) decided: read.t1 ok, write.t1 regression'],
    );
    // Pairs alternate: the first side of a test flips from sweep to sweep.
    const firsts = [1, 2].map((round) => stored.find((s) => s.test === 'read' && s.round === round)?.role);
    assert.notEqual(firsts[0], firsts[1]);
    assertBothClosed(parts);
  });

  test('a server that dies mid-session: its death is the cause, and both servers are stopped', async () => {
    const errorLog = join(dir, 'error.log');
    await writeFile(errorLog, '2026-12-02T10:00:00Z 0 [ERROR] [MY-013183] [InnoDB] Assertion failure: row0sel.cc\n');
    const parts = fakeParts(
      {
        measure: (input, self) => {
          if (input.role !== 'candidate' || input.round !== 2) return Promise.resolve(fakeSample(input, 1000));
          self.servers.candidate!.crash('SIGSEGV');
          return Promise.reject(new Error('Lost connection to MySQL server during query'));
        },
      },
      errorLog,
    );
    const { ctx, stored } = fakeContext();
    const err = await runPairedSession(fakeSuite([fakeTest('read')]), parts, plan(), ctx).then(
      () => assert.fail('the session should have failed'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MeasureFailedError, String(err));
    assert.ok(err.cause instanceof ServerDiedError, String(err.cause));
    assert.equal(err.cause.pid, PIDS.candidate);
    assert.match(err.message, /^test read.t1 on candidate candidate-target, round 2: the server \(pid 1002\) died/);
    assert.match(err.message, /killed by SIGSEGV: .*Assertion failure/);
    // Sweep 2 measures the candidate first (the order flips): the pair of sweep 1 is all that was kept.
    assert.deepEqual(
      stored.map((s) => [s.round, s.role]),
      [
        [1, 'baseline'],
        [1, 'candidate'],
      ],
    );
    assertBothClosed(parts);
  });

  test('garbage from sysbench: one clear error naming the test, side and round, and both servers stopped', async () => {
    const parts = fakeParts({
      // The candidate's runs print something that is not a report; the real parser reads it, as runSysbench would.
      measure: (input) =>
        Promise.resolve().then(() => {
          if (input.role === 'candidate') parseSysbenchOutput('sysbench 1.0.20\nSegmentation fault (core dumped)\n');
          return fakeSample(input, 1000);
        }),
    });
    const { ctx } = fakeContext();
    // A live server is given a second to die before the failure is blamed on sysbench: that second runs on mock time.
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const session = runPairedSession(fakeSuite([fakeTest('oltp_point_select')]), parts, plan(), ctx);
      let settled = false;
      const result = session.then(
        () => assert.fail('the session should have failed'),
        (e: unknown) => e,
      );
      void result.finally(() => (settled = true));
      while (!settled) {
        await turn();
        mock.timers.tick(1000);
      }
      const err = await result;
      assert.ok(err instanceof MeasureFailedError, String(err));
      assert.ok(err.cause instanceof SysbenchOutputError);
      assert.equal(
        err.message,
        'test oltp_point_select.t1 on candidate candidate-target, round 1: sysbench output is truncated or is not ' +
          'the output of a sysbench run: no "SQL statistics:" section ' +
          '(last line: "Segmentation fault (core dumped)") ' +
          '(log: /nonexistent/candidate/sysbench.log)',
      );
    } finally {
      mock.timers.reset();
    }
    assertBothClosed(parts);
  });

  test('a spent budget: the session stops before the sweep that would overrun it', async () => {
    const jitter = noise(5, 0.02);
    const parts = fakeParts({
      // Each run takes its 10 s on the fake clock: a pair is 20 s, and a 1-minute budget holds three sweeps.
      measure: (input, self) => {
        self.clock.ms += input.test.seconds * 1000;
        return Promise.resolve(fakeSample(input, 1000 * (1 + jitter())));
      },
    });
    const { ctx, stored } = fakeContext();
    const outcome = await runPairedSession(
      fakeSuite([fakeTest('read')]),
      parts,
      plan({ budgetMinutes: 1, idleServer: 'pause', instanceSeconds: 3600 }),
      ctx,
    );
    assert.equal(outcome.stoppedBy, 'budget');
    assert.equal(outcome.sweeps, 3, 'after 60 s, a fourth 20 s sweep would pass the minute');
    assert.equal(outcome.minutes, 1);
    assert.equal(stored.length, 6);
    // Pause: the other side is frozen before each warm-up and each run, and the drain is never asked.
    assert.equal((parts.servers.baseline?.pauses ?? 0) + (parts.servers.candidate?.pauses ?? 0), 2 + 6);
    assert.equal(parts.clock.sleeps, 0);
    assertBothClosed(parts);
  });

  test('a pace slower than planned: one warning, at the second block, that no look can call a drop', async () => {
    const jitter = noise(7, 0.02);
    const parts = fakeParts({
      // 10 s a run on the fake clock: a sweep (a block) takes 20 s, and the 2-minute budget holds six.
      measure: (input, self) => {
        self.clock.ms += input.test.seconds * 1000;
        return Promise.resolve(fakeSample(input, 1000 * (1 + jitter())));
      },
    });
    const { ctx, lines } = fakeContext();
    // Planned on 7 blocks, where one test at alpha 0.01 can first reject (1/128), as an optimistic plan would be.
    const base = plan({ budgetMinutes: 2, idleServer: 'pause' });
    const outcome = await runPairedSession(
      fakeSuite([fakeTest('read')]),
      parts,
      { ...base, verdicts: { ...base.verdicts, plannedBlocks: 7 } },
      ctx,
    );
    assert.equal(outcome.stoppedBy, 'budget');
    assert.equal(outcome.sweeps, 6);
    // The pace is read from the second block on (20 s a block): 40 s gone, 80 s left pay for 4 more, 6 in all.
    const warnings = lines.filter((l) => l.level === WARN);
    assert.deepEqual(
      warnings.map((w) => [w.blocks, w.msg]),
      [
        [
          2,
          'at this pace (20.0 s a block) the budget of 2 min ends after about 6 blocks, before any look can call a ' +
            'drop significant (that needs 7 blocks): a test can still be found ok, but one that dropped past its ' +
            'threshold can only end "unstable"; raise budget_minutes (or --budget) to about 3 or more',
        ],
      ],
    );
    assertBothClosed(parts);
  });

  test('a drain that times out: the wait ends at idle_settle_max_seconds, is logged, measuring goes on', async () => {
    // The baseline server burns a whole CPU and writes 1 MiB every reading; the candidate's is quiet.
    let busy = 0;
    const parts = fakeParts({
      activity: (pid) => {
        if (pid !== PIDS.baseline) return { cpu: 1, written: 0 };
        busy++;
        return { cpu: busy, written: busy * 1024 * 1024 };
      },
    });
    const { ctx, stored, lines } = fakeContext();
    const outcome = await runPairedSession(
      fakeSuite([fakeTest('read')]),
      parts,
      plan({ maxPairs: 2, sequential: false, idleSettleMaxSeconds: 15, instanceSeconds: 3600 }),
      ctx,
    );
    assert.equal(outcome.stoppedBy, 'max_pairs');
    assert.equal(stored.length, 4, 'every run was measured despite the busy server');
    // The candidate's warm-up and each of its two runs waited for the baseline server in vain.
    assert.equal(outcome.drainTimeouts, 3);
    const warnings = lines.filter((l) => l.level === WARN);
    assert.equal(warnings.length, 3);
    for (const w of warnings) {
      assert.equal(w.role, 'baseline');
      assert.equal(w.measuring, 'candidate');
      assert.equal(w.waitedSeconds, 15);
      assert.match(w.msg, /^the baseline server did not settle in 15 s \(idle_settle_max_seconds\)/);
    }
    // Three waits of 15 s in quarter-second windows, and one quiet window before each of the three baseline sides.
    assert.equal(parts.clock.ms, 3 * 15_000 + 3 * 250);
    assert.equal(parts.clock.sleeps, 3 * 60 + 3);
    assertBothClosed(parts);
  });

  test('new instances for each block: both servers stopped, started again and warmed up briefly', async () => {
    const parts = fakeParts();
    const started: string[] = [];
    const start = parts.start;
    parts.start = (role) => (started.push(role), start(role));
    const warmed: Array<number | undefined> = [];
    parts.warmUp = (_role, seconds) => Promise.resolve(void warmed.push(seconds));
    const { ctx } = fakeContext();
    // Two runs of 10 s a sweep: 20 s of runs closes a block of instance_seconds 20 after every sweep.
    const outcome = await runPairedSession(
      fakeSuite([fakeTest('read')]),
      parts,
      plan({ maxPairs: 3, sequential: false, instanceSeconds: 20 }),
      ctx,
    );
    assert.equal(outcome.sweeps, 3);
    assert.equal(outcome.instances, 3);
    assert.deepEqual(started, ['baseline', 'candidate', 'baseline', 'candidate', 'baseline', 'candidate']);
    assert.deepEqual(warmed, [undefined, undefined, 1, 1, 1, 1], "the suite's warm-up first, then 1 s each");
    assertBothClosed(parts);
  });

  test('instance_warmup_seconds 0: a restarted pair of servers measures at once, without a warm-up', async () => {
    const parts = fakeParts();
    const warmed: Array<number | undefined> = [];
    parts.warmUp = (_role, seconds) => Promise.resolve(void warmed.push(seconds));
    const { ctx } = fakeContext();
    const outcome = await runPairedSession(
      fakeSuite([fakeTest('read')]),
      parts,
      { ...plan({ maxPairs: 3, sequential: false, instanceSeconds: 20 }), restartWarmupSeconds: 0 },
      ctx,
    );
    assert.equal(outcome.instances, 3);
    assert.deepEqual(warmed, [undefined, undefined], "only the suite's own warm-up, at the start");
    assertBothClosed(parts);
  });

  test("a suite's own script that changes the loaded rows stops the session after its first pair", async () => {
    const load = { database: 'sbtest', tables: 2, tableSize: 100 };
    const grows = { ...fakeTest('grows'), load } as unknown as SuiteTest;
    const parts = fakeParts({
      rowCounts: (role, l) => Promise.resolve(role === 'candidate' ? [l.tableSize, 103] : [l.tableSize, l.tableSize]),
    });
    const { ctx, stored } = fakeContext();
    const err = await runPairedSession(fakeSuite([grows]), parts, plan(), ctx).then(
      () => assert.fail('the session should have stopped'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DataChangingTestError, String(err));
    assert.equal(
      err.message,
      'test grows changed the rows of the loaded table sbtest.sbtest2 from 100 to 103 on the candidate server in ' +
        'its first pair: in a paired session each server runs every test on one datadir, so the faster server ' +
        'would change the data more and the two would read different tables; make its script leave the loaded ' +
        "tables as it found them (append to a table of its own, or put back what it deletes, as qpswatch's insert " +
        'and delete-insert do), or run the suite in the whole-run design (design: runs, or --rounds N)',
    );
    assert.equal(stored.length, 2, 'its first pair only');
    assertBothClosed(parts);
  });
});
