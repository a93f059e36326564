import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { functionGrowth } from '../../../src/analysis/index.js';
import { functionKey } from '../../../src/analysis/function-key.js';

describe('functionKey', () => {
  const cases: [string, string][] = [
    ['dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)', 'dispatch_command'],
    ['SQL_SELECT::test_quick_select(THD*, Bitmap<64u>, unsigned long long, bool)', 'SQL_SELECT::test_quick_select'],
    ['JOIN::optimize()', 'JOIN::optimize'],
    ['Item::val_int() const', 'Item::val_int'],
    ['std::function<void (int)>::operator()(int) const', 'std::function<void (int)>::operator()'],
    ['cmp_data', 'cmp_data'],
    ['0x0000000000401000', '0x0000000000401000'],
    ['(below main)', '(below main)'],
  ];
  for (const [name, key] of cases) test(`${name} -> ${key}`, () => assert.equal(functionKey(name), key));
});

describe('functionGrowth across a changed signature', () => {
  test('a function whose parameters changed is one row, its growth the difference; overloads add up', () => {
    const grown = functionGrowth(
      [
        {
          name: 'dispatch_command(enum_server_command, THD*, char*, unsigned int, bool, bool)',
          object: 'mariadbd',
          inclusive: 1000,
          exclusive: 10,
        },
        {
          name: 'page_rec_get_n_recs_before(unsigned char const*)',
          object: 'mariadbd',
          inclusive: 300,
          exclusive: 300,
        },
        { name: 'Item::val(int)', object: 'mariadbd', inclusive: 5, exclusive: 5 },
        { name: 'Item::val(char)', object: 'mariadbd', inclusive: 5, exclusive: 5 },
      ],
      [
        {
          name: 'dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)',
          object: 'mariadbd',
          inclusive: 1030,
          exclusive: 12,
        },
        {
          name: 'page_rec_get_n_recs_before(unsigned char const*)',
          object: 'mariadbd',
          inclusive: 330,
          exclusive: 330,
        },
        { name: 'Item::val(int)', object: 'mariadbd', inclusive: 12, exclusive: 12 },
      ],
    );
    assert.deepEqual(
      grown.map((g) => [g.name, g.baselineInclusive, g.candidateInclusive, g.inclusiveGrowth]),
      [
        ['page_rec_get_n_recs_before(unsigned char const*)', 300, 330, 30],
        ['dispatch_command(…)', 1000, 1030, 30],
        ['Item::val(…)', 10, 12, 2],
      ],
    );
  });
});
