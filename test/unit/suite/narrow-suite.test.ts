import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadSuite, narrowSuite, UnknownSuiteTestError } from '../../../src/suite/index.js';
import { projectRoot } from '../../helpers/paths.js';

const suitesDir = join(projectRoot, 'config', 'suites');

test('a suite narrowed to the regressed tests keeps only them; a .tN suffix names the test', () => {
  const quick = loadSuite('quick', suitesDir);
  const cases: Array<[string[], string[]]> = [
    [['update-index'], ['update-index']],
    [
      ['update-index.t1', 'insert'],
      ['update-index', 'insert'],
    ],
    [
      ['insert', 'update-index', 'insert.t1'],
      ['update-index', 'insert'],
    ],
  ];
  for (const [names, expected] of cases) {
    const narrowed = narrowSuite(quick, names);
    assert.deepEqual([...new Set(narrowed.tests.map((t) => t.name))], expected, names.join(','));
    assert.deepEqual(narrowed.loads, quick.loads);
    assert.equal(narrowed.warmup, quick.warmup);
  }
});

test('levels keep the named tests at every level they ran at', () => {
  const matrix = loadSuite('matrix', suitesDir, { cores: 2 });
  const narrowed = narrowSuite(matrix, ['point-query.t2']);
  assert.deepEqual(
    narrowed.levels.map((l) => [l.threads, l.tests]),
    matrix.levels.map((l) => [l.threads, ['point-query']]),
  );
  assert.equal(narrowed.tests.length, matrix.levels.length);
  assert.deepEqual(narrowed.loads, matrix.loads);
});

test('a test the suite does not have is refused, naming it and the tests there are', () => {
  const quick = loadSuite('quick', suitesDir);
  assert.throws(
    () => narrowSuite(quick, ['update-index', 'no-such']),
    (err: unknown) =>
      err instanceof UnknownSuiteTestError &&
      /^test "no-such" is not in suite quick: use one of update-index, update-nonindex, /.test(err.message),
  );
});
