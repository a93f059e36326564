import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareStatementPlans, planLine, planShape, type SidePlan } from '../../../src/analysis/index.js';

/** EXPLAIN FORMAT=JSON of a lookup on k, as MariaDB 10.11 gives it; `over` changes the table's fields. */
function lookup(over: Record<string, unknown> = {}): unknown {
  return {
    query_block: {
      select_id: 1,
      nested_loop: [
        {
          table: {
            table_name: 'sbtest1',
            access_type: 'range',
            possible_keys: ['k_1'],
            key: 'k_1',
            key_length: '4',
            used_key_parts: ['k'],
            rows: 270,
            filtered: 100,
            index_condition: 'sbtest1.k in (1000,1001)',
            ...over,
          },
        },
      ],
    },
  };
}

const side = (plan: unknown, statement = 'SELECT * FROM sbtest1 WHERE k IN (?, ?)'): SidePlan => ({
  test: 'random-points',
  statement,
  plan,
});

describe('planShape and planLine', () => {
  test('estimates and numbers written as text go; a condition is only there or not', () => {
    assert.deepEqual(planShape(lookup()), {
      query_block: {
        nested_loop: [
          {
            table: {
              table_name: 'sbtest1',
              access_type: 'range',
              possible_keys: ['k_1'],
              key: 'k_1',
              used_key_parts: ['k'],
              index_condition: true,
            },
          },
        ],
      },
    });
    assert.deepEqual(planShape({ cost_info: { query_cost: '1.20' }, rows: 5 }), undefined);
  });

  test('one line per plan: each table with its access and key, then what the plan does beside', () => {
    assert.equal(planLine(lookup()), 'sbtest1 range k_1 + index condition');
    const sorted = {
      query_block: {
        filesort: {
          sort_key: 'c',
          temporary_table: {
            nested_loop: [{ table: { table_name: 't', access_type: 'ALL', attached_condition: 'x' } }],
          },
        },
      },
    };
    assert.equal(planLine(sorted), 'filesort, temporary, t ALL + where');
    assert.equal(planLine({ query_block: { select_id: 1, table: { table_name: 'sbtest1' } } }), 'sbtest1');
    assert.equal(planLine({ query_block: { message: 'No tables used' } }), 'no table read');
  });
});

describe('compareStatementPlans', () => {
  test('the same shapes with other estimates: nothing differs; every statement on both sides is counted', () => {
    const got = compareStatementPlans(
      [side(lookup()), side(lookup(), 'SELECT 1')],
      [side(lookup({ rows: 9000, filtered: 55.5 })), side(lookup(), 'SELECT 1'), side(lookup(), 'only in C')],
    );
    assert.deepEqual(got, { compared: 2, differences: [] });
  });

  test('another access or condition is a difference, each plan in one line', () => {
    const got = compareStatementPlans(
      [side(lookup())],
      [side(lookup({ index_condition: undefined, attached_condition: 'sbtest1.k in (1000,1001)' }))],
    );
    assert.deepEqual(got.differences, [
      {
        test: 'random-points',
        statement: 'SELECT * FROM sbtest1 WHERE k IN (?, ?)',
        baseline: 'sbtest1 range k_1 + index condition',
        candidate: 'sbtest1 range k_1 + where',
      },
    ]);
  });

  test('a difference the line does not show is said; an error is shown as the server gave it', () => {
    const detail = compareStatementPlans([side(lookup())], [side(lookup({ used_key_parts: ['k', 'id'] }))]);
    assert.deepEqual(
      detail.differences.map((d) => [d.baseline, d.candidate]),
      [
        [
          'sbtest1 range k_1 + index condition (other detail differs)',
          'sbtest1 range k_1 + index condition (other detail differs)',
        ],
      ],
    );
    const failed = compareStatementPlans(
      [side(lookup())],
      [{ test: 'random-points', statement: 'SELECT * FROM sbtest1 WHERE k IN (?, ?)', error: 'syntax error' }],
    );
    assert.equal(failed.differences[0]?.candidate, 'cannot explain: syntax error');
  });
});
