import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import {
  announceSweeps,
  budgetRefusal,
  paceShortfall,
  planSweeps,
  preflight,
  PreflightError,
  roundsRefusal,
  sweepPlanText,
  sweepSeconds,
  RESTART_SECONDS,
  type PreflightRequest,
} from '../../../src/session/preflight.js';
import { fingerprintId, hostFingerprint } from '../../../src/sampling/index.js';
import { openStore } from '../../../src/store/index.js';
import type { SuiteTest } from '../../../src/suite/index.js';
import { stockDataChangerRefusal, suiteDataChangerRefusal } from '../../../src/session/data-changing.js';
import { sessionInput } from '../store/store-inputs.js';
import { joined } from '../../helpers/pattern.js';

/** A suite of `count` tests of `seconds` each, every one at the given thread counts. */
function suite(
  name: string,
  count: number,
  seconds: number,
  threads: number[] = [1],
): { name: string; tests: SuiteTest[] } {
  return {
    name,
    tests: Array.from({ length: count }, (_, i) => ({ name: `t${i}`, seconds, threads }) as unknown as SuiteTest),
  };
}

const blocks = { alpha: 0.01, instanceSeconds: 15 };

describe('the blocks a budget pays for', () => {
  test('a sweep is two runs of every test at every thread count, each with its overhead', () => {
    assert.equal(sweepSeconds(suite('s', 4, 8).tests), 67.2);
    assert.equal(sweepSeconds(suite('s', 2, 1, [1, 4]).tests), 11.2);
  });

  test('as the session loop spends it: whole blocks with a restart between each two, the first always', () => {
    const cases: Array<[minutes: number, blocks: number]> = [
      [8, 6], // (480 + 6) / (67.2 + 6)
      [(8 * 67.2 + 7 * RESTART_SECONDS) / 60, 8], // exactly 8 blocks and their 7 restarts
      [0.5, 1], // less than one block: the first still runs
    ];
    for (const [minutes, expected] of cases)
      assert.equal(planSweeps(suite('four', 4, 8), minutes, 200, blocks).budgetBlocks, expected, `${minutes} min`);
    assert.equal(planSweeps(suite('four', 4, 8), 600, 200, blocks).plannedBlocks, 200, 'max_pairs caps the blocks');
    // A short suite's sweep measures under instance_seconds: its instances serve two sweeps.
    assert.equal(planSweeps(suite('two', 2, 1), 8, 200, blocks).sweepsPerBlock, 4);
  });

  test('a budget short of a verdict is refused in one line with the blocks and the budget that reaches it', () => {
    const refusal = budgetRefusal(planSweeps(suite('four', 4, 8), 8, 200, blocks));
    assert.equal(
      refusal,
      'budget 8 min pays for 6 blocks of suite four (4 tests, 67 s each sweep, new server instances every sweep); ' +
        'a verdict needs 9 blocks (4 test(s) sharing alpha 0.01): raise --budget (or budget_minutes) to 11 or ' +
        'more, or shorten the tests (--seconds)',
    );
    // The budget it names is enough.
    assert.equal(budgetRefusal(planSweeps(suite('four', 4, 8), 11, 200, blocks)), undefined);
  });

  test('thread counts are named, and a config check names the options', () => {
    const refusal = budgetRefusal(planSweeps(suite('wide', 2, 30, [1, 4]), 5, 200, blocks), 'config');
    assert.equal(
      refusal,
      'budget 5 min pays for 1 block of suite wide (2 tests, 4 runs with their thread counts, 243 s each sweep, ' +
        'new server instances every sweep); a verdict needs 9 blocks (4 test(s) sharing alpha 0.01): raise ' +
        'budget_minutes to 38 or more, or shorten the tests',
    );
  });

  test('max_pairs under what a verdict needs is refused with its own fix', () => {
    assert.equal(
      budgetRefusal(planSweeps(suite('q', 8, 1), 8, 5, blocks)),
      'max_pairs 5 stops suite q (8 tests, 22 s each sweep, new server instances every sweep) at 5 pairs; a ' +
        'verdict needs 10 blocks (8 test(s) sharing alpha 0.01): raise --pairs (or max_pairs) to 10 or more',
    );
    assert.match(
      budgetRefusal(planSweeps(suite('four', 4, 8), 8, 5, blocks))!,
      joined(/: raise --budget \(or budget_minutes\) to 11 or more, or /, /shorten the tests \(--seconds\); /),
    );
  });

  test('the line before the first pair', () => {
    assert.equal(
      sweepPlanText(planSweeps(suite('quick', 8, 1), 8, 200, blocks)),
      'budget 8 min pays for about 17 blocks of suite quick (8 tests, 22 s each sweep, new server instances every ' +
        'sweep); the looks are at 11, 17 blocks',
    );
    assert.match(
      sweepPlanText(planSweeps(suite('quick', 8, 1), 240, 200, blocks)),
      /about 200 blocks .*, capped at 200 pairs per test by max_pairs; the looks are at 12, 31, 78, 200 blocks$/,
    );
  });
});

describe('tests that change the data others read', () => {
  const stock = (script: string): SuiteTest =>
    ({ name: 'x', seconds: 1, threads: [1], scriptPath: `/usr/share/sysbench/${script}.lua` }) as unknown as SuiteTest;
  test("sysbench's stock oltp_insert and oltp_delete are refused before anything starts, in one line", () => {
    const request = (script: string): PreflightRequest => ({
      suite: { name: 's', tests: [stock('oltp_point_select'), stock(script)] },
      design: 'paired',
      rounds: 1,
      alpha: 0.01,
      budgetMinutes: 60,
      maxPairs: 200,
      sequential: true,
      instanceSeconds: 15,
    });
    assert.throws(
      () => preflight(request('oltp_insert')),
      (err: unknown) =>
        err instanceof PreflightError &&
        err.message ===
          "test x runs sysbench's stock oltp_insert, which grows the loaded tables: in a paired session each server " +
            'runs every test on one datadir, so the faster server would change the data more and the two would ' +
            "read different tables; use qpswatch's own script insert (appends to a table of its own), or run the " +
            'suite in the whole-run design (design: runs, or --rounds N)',
    );
    assert.throws(() => preflight(request('oltp_delete')), /stock oltp_delete, which shrinks .* script delete-insert/);
    assert.doesNotThrow(() => preflight({ ...request('oltp_insert'), design: 'runs', rounds: 5 }));
    assert.doesNotThrow(() => preflight(request('oltp_update_index')));
  });

  describe('a copy of a stock script elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qpswatch-stock-copy-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const at = (path: string): SuiteTest =>
      ({ name: 'grow', seconds: 1, threads: [1], scriptPath: path }) as unknown as SuiteTest;
    const stockInsert = '/usr/share/sysbench/oltp_insert.lua';

    test('is known by its name in any folder', () => {
      const named = join(dir, 'oltp_delete.lua');
      writeFileSync(named, '-- a copy edited since\n');
      assert.equal(
        stockDataChangerRefusal(at(named)),
        `test grow runs ${named}, a copy of sysbench's stock oltp_delete, which shrinks the loaded tables: in a ` +
          'paired session each server runs every test on one datadir, so the faster server would change the data ' +
          "more and the two would read different tables; use qpswatch's own script delete-insert (puts back each " +
          'row it deletes), or run the suite in the whole-run design (design: runs, or --rounds N)',
      );
    });

    test(
      'is known by its content when renamed (the sha256 of the stock script)',
      { skip: !existsSync(stockInsert) },
      () => {
        const renamed = join(dir, 'my-writes.lua');
        copyFileSync(stockInsert, renamed);
        assert.match(
          stockDataChangerRefusal(at(renamed)) ?? '',
          /^test grow runs .*my-writes\.lua, a copy of sysbench's stock oltp_insert, which grows/,
        );
        assert.throws(
          () =>
            preflight({
              suite: { name: 's', tests: [at(renamed)] },
              design: 'paired',
              rounds: 1,
              alpha: 0.01,
              budgetMinutes: 60,
              maxPairs: 200,
              sequential: false,
              instanceSeconds: 15,
            }),
          PreflightError,
          'a calibration is refused too',
        );
      },
    );

    test("a suite's own script of another content and name is left to the row count after its first pair", () => {
      const own = join(dir, 'reads.lua');
      writeFileSync(own, '-- reads only\n');
      assert.equal(stockDataChangerRefusal(at(own)), undefined);
      assert.equal(suiteDataChangerRefusal({ tests: [at(own), stock('oltp_point_select')] }), undefined);
      assert.match(
        suiteDataChangerRefusal({ tests: [at(own), stock('bulk_insert')] }) ?? '',
        /stock bulk_insert, which grows/,
      );
    });
  });
});

describe('whole runs: the rounds that can reach alpha', () => {
  test('too few rounds are refused with their smallest p-value and the rounds that reach alpha', () => {
    assert.equal(
      roundsRefusal(2, 0.01),
      '--rounds 2: the smallest p-value of 2 rounds is 1/6 (0.167), above ' +
        'alpha 0.01; use --rounds 5 or more, or the paired design',
    );
    assert.equal(
      roundsRefusal(4, 0.01),
      '--rounds 4: the smallest p-value of 4 rounds is 1/70 (0.0143), above ' +
        'alpha 0.01; use --rounds 5 or more, or the paired design',
    );
    assert.equal(
      roundsRefusal(1, 0.2, 'config'),
      'rounds 1: the smallest p-value of 1 round is 1/2 (0.5), above alpha ' +
        '0.2; use rounds 2 or more, or design: paired',
    );
    assert.equal(roundsRefusal(5, 0.01), undefined);
    assert.equal(roundsRefusal(2, 0.2), undefined);
  });

  test('an alpha no number of rounds reaches says so', () => {
    assert.match(
      roundsRefusal(100, 1e-6)!,
      joined(
        /^--rounds 100: the smallest p-value of 100 rounds is /,
        /1\/20000 \(0\.00005\), above alpha 0\.000001; no number of /,
        /rounds reaches it: raise alpha to 0\.00005 or more, or use /,
        /the paired design$/,
      ),
    );
  });
});

describe('preflight', () => {
  const base: PreflightRequest = {
    suite: suite('four', 4, 8),
    design: 'paired',
    rounds: 5,
    alpha: 0.01,
    budgetMinutes: 8,
    maxPairs: 200,
    sequential: true,
    instanceSeconds: 15,
  };

  test('throws the refusal as bad input', () => {
    assert.throws(
      () => preflight(base),
      (err: unknown) => err instanceof PreflightError && /pays for 6 blocks/.test(err.message),
    );
    assert.throws(() => preflight({ ...base, design: 'runs', rounds: 2 }), PreflightError);
  });

  test('lets through what can reach a verdict, and what judges nothing while it runs', () => {
    assert.equal(preflight({ ...base, budgetMinutes: 11 })?.sweeps, 9);
    assert.equal(preflight({ ...base, sequential: false })?.sweeps, 6, 'a calibration needs no first look');
    assert.equal(preflight({ ...base, design: 'runs' }), undefined);
  });
});

describe('announceSweeps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-preflight-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function capture() {
    const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
    return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
  }

  test(
    "prints the sweeps, with this host's calibrated drop where there is " +
      'one, and warns once per suite when there is none',
    async () => {
      const store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
      try {
        const fp = await hostFingerprint(dir, { idleStatesHeld: true });
        const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fp), fingerprint: fp });
        const sessionId = await store.createSession(sessionInput(hostId, { suite: 'quick' }));
        await store.finishSession(sessionId);
        const figure = {
          threads: 1,
          pairs: 20,
          noise: 0.03,
          pairSeconds: 3,
          pairsNeeded: 14,
          minutesNeeded: 0.7,
          detectableDrop: 0.04,
        };
        await store.recordCalibration({
          hostId,
          sessionId,
          suite: 'quick',
          target: 'local',
          settings: { alpha: 0.01 },
          tests: [
            { test: 'a', ...figure },
            { test: 'b', ...figure, noise: 0.09 },
          ],
        });

        const { lines, log } = capture();
        const deps = { stateDir: dir, alpha: 0.01, store, log };
        await announceSweeps(planSweeps(suite('quick', 8, 1), 8, 200, blocks), deps);
        await announceSweeps(planSweeps(suite('never-calibrated', 8, 1), 8, 200, blocks), deps);
        await announceSweeps(planSweeps(suite('never-calibrated', 8, 1), 8, 200, blocks), deps);
        const info = lines.filter((l) => l.level === 30);
        const warn = lines.filter((l) => l.level === 40);
        assert.equal(info.length, 3);
        assert.match(
          info[0]!.msg,
          joined(
            /^budget 8 min pays for about 17 blocks of suite quick \(8 /,
            /tests, 22 s each sweep, new server instances every sweep\); the looks are at 11, 17 blocks; by /,
            /this host's calibration, a detectable drop of \d+-\d+% per /,
            /test at 17 pairs$/,
          ),
        );
        assert.equal(info[0]!['sweeps'], 17);
        assert.deepEqual(Object.keys(info[0]!['detectablePercent'] as object), ['a.t1', 'b.t1']);
        assert.doesNotMatch(info[1]!.msg, /calibration/);
        assert.equal(warn.length, 1);
        assert.match(
          warn[0]!.msg,
          /no calibration for the never-calibrated suite.*run qpswatch calibrate --suite never-calibrated/,
        );
      } finally {
        await store.close();
      }
    },
  );

  test(
    'a suite of levels: the calibrated drop per level, and a warning that ' + 'names a level too noisy on this host',
    async () => {
      const store = await openStore({ backend: 'sqlite', path: join(dir, 'levels.sqlite') });
      try {
        const fp = await hostFingerprint(dir, { idleStatesHeld: true });
        const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fp), fingerprint: fp });
        const sessionId = await store.createSession(sessionInput(hostId, { suite: 'levels' }));
        await store.finishSession(sessionId);
        const figure = { pairs: 20, pairSeconds: 3, pairsNeeded: 14, minutesNeeded: 0.7, detectableDrop: 0.04 };
        // 2 client threads on a 2-core host: pairs of 17-30% noise against 3-7% at 1 (docs/verdicts.md).
        const tests = ['a', 'b'].flatMap((test) => [
          { test, threads: 1, noise: 0.03, ...figure },
          { test, threads: 2, noise: 0.25, ...figure },
        ]);
        await store.recordCalibration({
          hostId,
          sessionId,
          suite: 'levels',
          target: 'local',
          settings: { alpha: 0.01 },
          tests,
        });
        const { lines, log } = capture();
        const levels = {
          name: 'levels',
          tests: ['a', 'b'].flatMap((name) =>
            [1, 2].map((threads) => ({ name, seconds: 1, threads: [threads] }) as unknown as SuiteTest),
          ),
        };
        await announceSweeps(planSweeps(levels, 8, 200, blocks), { stateDir: dir, alpha: 0.01, store, log });
        const info = lines.filter((l) => l.level === 30);
        const warn = lines.filter((l) => l.level === 40);
        assert.match(
          info[0]!.msg,
          joined(
            /suite levels \(2 tests, 4 runs with their thread counts, \d+ /,
            /s each sweep, new server instances every 2 sweeps\).* per test at \d+ pairs \(t1: \d+%, t2: /,
            /\d+%\)$/,
          ),
        );
        assert.equal(warn.length, 1);
        assert.match(
          warn[0]!.msg,
          joined(
            /^level t2 is too noisy on this host: at \d+ pairs its tests /,
            /detect drops of \d+% \(median above 10%\); fixes: a quieter /,
            /host, longer runs/,
          ),
        );
        assert.equal(warn[0]!['threads'], 2);
      } finally {
        await store.close();
      }
    },
  );
});

describe('paceShortfall: the budget ends before any look can reject, by the pace measured so far', () => {
  // Eight tests at alpha 0.05 planned on 8 blocks: one look, a test's share 0.05 / 8, which 8 blocks (1/256) reach.
  const reading = { alpha: 0.05, family: 8, plannedBlocks: 8, budgetMinutes: 8 };
  test('a pace that reaches the look says nothing; a started block counts, so the line errs on silence', () => {
    assert.equal(paceShortfall({ ...reading, closedBlocks: 2, elapsedMs: 110_000, blockMs: 55_000 }), undefined);
    // 350 s left at 65 s a block: 5 whole blocks and a sixth started, which the last look counts: 8 in all.
    assert.equal(paceShortfall({ ...reading, closedBlocks: 2, elapsedMs: 130_000, blockMs: 65_000 }), undefined);
    assert.equal(paceShortfall({ ...reading, closedBlocks: 0, elapsedMs: 30_000, blockMs: 30_000 }), undefined);
  });
  test('a pace that ends at 7 blocks: the blocks, what a verdict needs and the budget that reaches it', () => {
    // 70 s a block: 130 s gone, 350 s left pay for 5 more, 7 in all; 8 blocks end at 130 + 6 x 70 = 550 s.
    assert.equal(
      paceShortfall({ ...reading, closedBlocks: 2, elapsedMs: 130_000, blockMs: 70_000 }),
      'at this pace (70.0 s a block) the budget of 8 min ends after about 7 blocks, before any look can call a drop ' +
        'significant (that needs 8 blocks): a test can still be found ok, but one that dropped past its threshold ' +
        'can only end "unstable"; raise budget_minutes (or --budget) to about 10 or more',
    );
  });
});
