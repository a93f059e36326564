import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { csvField, neutralizeFormula, unneutralizeFormula } from '../../../src/report/csv.js';
import { formatResultsCsv, parseResultsCsv, type ResultRow } from '../../../src/report/index.js';
import { parseCsv } from './csv-parse.js';

describe('CSV cells a spreadsheet would run as a formula', () => {
  const cases: Array<[cell: string | number, written: string]> = [
    ["=cmd|' /C calc'!A0", `'=cmd|' /C calc'!A0`],
    ['=1+1', "'=1+1"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['=HYPERLINK("http://x","a,b")', `"'=HYPERLINK(""http://x"",""a,b"")"`],
    // numbers stay numbers, as numbers and as text
    [-0.25, '-0.25'],
    [1e-7, '1e-7'],
    ['-0.25', '-0.25'],
    ['+3', '+3'],
    ['-1e-5', '-1e-5'],
    // nothing to do
    ['point-query', 'point-query'],
    ['a=b', 'a=b'],
    ['', ''],
  ];
  for (const [cell, written] of cases) {
    test(`${JSON.stringify(cell)} -> ${JSON.stringify(written)}`, () => assert.equal(csvField(cell), written));
  }

  test('unneutralizeFormula undoes what neutralizeFormula did, and nothing else', () => {
    for (const text of ['=1+1', '+x', '-x', '@x', '\tx', 'plain', "'quoted", "'-3", '-3']) {
      assert.equal(unneutralizeFormula(neutralizeFormula(text)), text);
    }
  });
});

describe('export writes hostile test names as text, and import reads them back', () => {
  const row = (test: string): ResultRow => ({
    flavor: 'mariadb',
    version: '10.11.6',
    test,
    threads: 4,
    qps: 1234.5,
    cpuPerOp: 12.25,
    csPerOp: 0.5,
    readsPerOp: 0,
    readKBPerOp: 0.125,
    writeKBPerOp: 3,
  });
  const rows = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1:A2)', 'point-query'].map(row);

  test('no cell of the file starts with = + - @; the numbers are plain numbers', () => {
    const cells = parseCsv(formatResultsCsv(rows)).slice(1);
    for (const record of cells) {
      assert.ok(
        record.every((cell) => !/^[=+\-@\t\r]/.test(cell)),
        JSON.stringify(record),
      );
      assert.deepEqual(record.slice(3), ['4', '1234.5', '12.25', '0.5', '0', '0.125', '3']);
    }
    assert.equal(cells[0]![2], `'=cmd|' /C calc'!A0`);
  });

  test('round trip', () => {
    assert.deepEqual(parseResultsCsv(formatResultsCsv(rows), 'r.csv'), rows);
  });
});
