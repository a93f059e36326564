import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { left, makeTable, renderTextTable, right, TableShapeError } from '../../../src/report/index.js';

describe('makeTable', () => {
  test('refuses a row with the wrong number of cells', () => {
    assert.throws(
      () => makeTable([left('a'), right('b')], [['1', '2'], ['3']]),
      (error: unknown) =>
        error instanceof TableShapeError && error.rowIndex === 1 && error.cells === 1 && error.columns === 2,
    );
  });
});

describe('renderTextTable', () => {
  test('pads left and right aligned columns to the widest cell, header included, no trailing spaces', () => {
    const table = makeTable(
      [left('name'), right('qps'), left('note')],
      [
        ['a', '12345', ''],
        ['longer-name', '7', 'x'],
      ],
    );
    assert.deepEqual(renderTextTable(table), [
      'name           qps  note',
      'a            12345',
      'longer-name      7  x',
    ]);
  });

  test('counts µ as one column', () => {
    const table = makeTable([right('cpuµs/o'), right('x')], [['1', '2']]);
    assert.deepEqual(renderTextTable(table), ['cpuµs/o  x', '      1  2']);
  });

  test('shows control characters in names escaped so one row stays one line', () => {
    const table = makeTable([left('test')], [['bad\nname\t\u0001']]);
    assert.deepEqual(renderTextTable(table), ['test', 'bad\\nname\\t\\x01']);
  });
});
