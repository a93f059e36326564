import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  connectionThreadCount,
  parsePerfStatPerThread,
  perfProbeProblem,
  perfStatArgv,
  PerfStatError,
} from '../../../src/instructions/index.js';

/**
 * perf 6.1's CSV with --per-thread, as it writes it on this project's VM (no PMU: instructions:u is "<not supported>")
 * and for software events, and as it writes counted hardware events (a thread name may hold a comma or a dash).
 * The perf path is untested on real hardware: these are its parsing's tests.
 */
const NO_PMU = `# started on Thu Dec  3 16:21:48 2026

yes-25983,<not supported>,,instructions:u,0,100.00,,
yes-25983,408.76,msec,task-clock,408757928,100.00,0.437,CPUs utilized
`;

const COUNTED = `# started on Thu Dec  3 16:21:48 2026

mariadbd-5670,1203344,,instructions:u,1051042,100.00,,
mariadbd-5671,85302946,,instructions:u,1051042,100.00,,
ib_pg,flush-5672,4032,,instructions:u,1051042,100.00,,
mariadbd-5673,<not counted>,,instructions:u,0,0.00,,
`;

describe('perf stat per thread', () => {
  test('reads each thread, its event and its count; a thread name with a comma or a dash stays whole', () => {
    assert.deepEqual(parsePerfStatPerThread(COUNTED), [
      { comm: 'mariadbd', tid: 5670, event: 'instructions:u', value: 1_203_344 },
      { comm: 'mariadbd', tid: 5671, event: 'instructions:u', value: 85_302_946 },
      { comm: 'ib_pg,flush', tid: 5672, event: 'instructions:u', value: 4032 },
      { comm: 'mariadbd', tid: 5673, event: 'instructions:u', value: undefined },
    ]);
  });

  test('the connection thread is the one that executed the most instructions', () => {
    assert.deepEqual(connectionThreadCount(parsePerfStatPerThread(COUNTED)), {
      comm: 'mariadbd',
      tid: 5671,
      event: 'instructions:u',
      value: 85_302_946,
    });
  });

  test('no thread counted (no PMU) is an error that says so; a line without a thread id too', () => {
    assert.throws(
      () => connectionThreadCount(parsePerfStatPerThread(NO_PMU)),
      (e: unknown) => e instanceof PerfStatError && /not counted on any thread.*no PMU/.test(e.message),
    );
    assert.throws(() => connectionThreadCount([]), /no instructions:u line/);
    assert.throws(() => parsePerfStatPerThread('mariadbd,12,,instructions:u,1,100.00,,\n'), /no thread id/);
    assert.throws(() => parsePerfStatPerThread('x-1,2,3\n'), /fewer than 8 fields/);
  });

  test('the probe tells a host that counts instructions:u from one that cannot', () => {
    assert.equal(perfProbeProblem('12345,,instructions:u,402130,100.00,,\n'), undefined);
    assert.match(perfProbeProblem('<not supported>,,instructions:u,0,100.00,,\n')!, /cannot count.*no PMU/);
    assert.match(perfProbeProblem('')!, /printed no instructions:u count/);
  });

  test('counts the server process per thread into a file, until interrupted', () => {
    assert.deepEqual(perfStatArgv('/usr/bin/perf', 4242, '/w/x.perf'), [
      '/usr/bin/perf',
      'stat',
      '-e',
      'instructions:u',
      '--per-thread',
      '-x',
      ',',
      '-o',
      '/w/x.perf',
      '-p',
      '4242',
    ]);
  });
});
