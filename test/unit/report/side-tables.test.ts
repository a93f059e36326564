import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plansBlocks, renderComparison, variablesBlocks } from '../../../src/report/index.js';
import { joined } from '../../helpers/pattern.js';
import { sampleView } from './sample-view.js';

const variables = {
  compared: 640,
  differences: [
    { name: 'innodb_adaptive_hash_index', baseline: 'OFF', candidate: 'ON' },
    { name: 'innodb_snapshot_isolation', candidate: 'ON' },
    { name: 'init_file', baseline: '', candidate: '<instance>/init.sql' },
  ],
};

describe('server variables in the comparison report', () => {
  test('text: the count, then one row per variable with both values; absent and empty values are marked', () => {
    const text = renderComparison({ ...sampleView(), variables }, 'text');
    assert.match(text, /^Server variables that differ$/m);
    assert.match(text, /^3 of 640 differ \(SHOW GLOBAL VARIABLES after start-up/m);
    assert.match(text, /^innodb_adaptive_hash_index +OFF +ON$/m);
    assert.match(text, /^innodb_snapshot_isolation +\(none\) +ON$/m);
    assert.match(text, /^init_file +'' +<instance>\/init\.sql$/m);
  });

  test('html escapes every value: a server value is data', () => {
    const html = renderComparison({ ...sampleView(), variables }, 'html');
    assert.match(html, /&lt;instance&gt;\/init\.sql/);
    assert.doesNotMatch(html, /<instance>/);
  });

  test('json carries them as they are; none differing says so; a session without them has no section', () => {
    const json = JSON.parse(renderComparison({ ...sampleView(), variables }, 'json')) as { variables: unknown };
    assert.deepEqual(json.variables, variables);
    const same = renderComparison({ ...sampleView(), variables: { compared: 640, differences: [] } }, 'text');
    assert.match(same, /^None: the 640 server variables are the same on both sides\.$/m);
    assert.doesNotMatch(renderComparison(sampleView(), 'text'), /Server variables/);
  });

  test('a limit keeps the first rows and says how many more and where', () => {
    const blocks = variablesBlocks(variables, { limit: 2, where: 'qpswatch show 42' });
    const table = blocks.find((b) => b.kind === 'table');
    assert.equal(table?.kind === 'table' ? table.table.rows.length : 0, 2);
    assert.deepEqual(blocks.at(-1), { kind: 'lines', lines: ['and 1 more: qpswatch show 42'] });
  });

  test('a long value is cut to 100 characters', () => {
    const long = { compared: 1, differences: [{ name: 'x', baseline: 'a'.repeat(300), candidate: 'b' }] };
    const text = renderComparison({ ...sampleView(), variables: long }, 'text');
    assert.match(text, new RegExp(`^x +${'a'.repeat(99)}… +b$`, 'm'));
  });
});

describe('statement plans in the comparison report', () => {
  const plans = {
    compared: 8,
    differences: [
      {
        test: 'random-points',
        statement: `SELECT id, k, c, pad FROM sbtest1 WHERE k IN (${Array(100).fill('?').join(', ')})`,
        baseline: 'sbtest1 range k_1 + index condition',
        candidate: 'sbtest1 range k_1 + where',
      },
    ],
  };

  test('text: the count, then per statement its test, the statement cut short, both plans', () => {
    const text = renderComparison({ ...sampleView(), plans }, 'text');
    assert.match(text, /^Plans that differ$/m);
    assert.match(text, /^1 of 8 statements differ \(EXPLAIN FORMAT=JSON after start-up; estimates left out\):$/m);
    assert.match(
      text,
      joined(
        /^random-points +SELECT id, k, c, pad FROM sbtest1 WHERE k IN \((\?, )+… +/,
        /sbtest1 range k_1 \+ index condition +sbtest1 range k_1 \+ where$/m,
      ),
    );
  });

  test('none differing says so; json carries them; a session without plans has no section', () => {
    const same = renderComparison({ ...sampleView(), plans: { compared: 8, differences: [] } }, 'text');
    assert.match(same, /^None: the 8 statements explained have the same plan on both sides\.$/m);
    const json = JSON.parse(renderComparison({ ...sampleView(), plans }, 'json')) as { plans: unknown };
    assert.deepEqual(json.plans, plans);
    assert.doesNotMatch(renderComparison(sampleView(), 'text'), /Plans that differ/);
    assert.deepEqual(plansBlocks(undefined), []);
  });
});
