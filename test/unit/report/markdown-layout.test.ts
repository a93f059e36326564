import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdown, left, makeTable, renderMarkdownTable, right } from '../../../src/report/index.js';

describe('escapeMarkdown', () => {
  const cases: [string, string][] = [
    ['point-query.t1', 'point-query.t1'],
    ['Innodb_rows_read', 'Innodb_rows_read'],
    ['_emph_', '\\_emph\\_'],
    ['a|b', 'a\\|b'],
    ['*bold*', '\\*bold\\*'],
    ['<script>', '\\<script\\>'],
    ['[link](x)', '\\[link\\](x)'],
    ['a&lt;b', 'a\\&lt;b'],
    ['back\\slash', 'back\\\\slash'],
    ['two\nlines', 'two lines'],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(escapeMarkdown(input), expected);
    });
  }
});

describe('renderMarkdownTable', () => {
  test('aligns cells, marks right-aligned columns and escapes pipes in data', () => {
    const table = makeTable([left('test'), right('C/B')], [['a|b', '0.96']]);
    assert.deepEqual(renderMarkdownTable(table), ['| test |  C/B |', '| ---- | ---: |', '| a\\|b | 0.96 |']);
  });

  test('delimiter cells have at least three dashes', () => {
    const table = makeTable([left('a'), right('b')], [['1', '2']]);
    assert.deepEqual(renderMarkdownTable(table), ['| a   |   b |', '| --- | --: |', '| 1   |   2 |']);
  });
});
