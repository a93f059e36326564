import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, csvRecord } from '../../../src/report/index.js';
import { parseCsv } from './csv-parse.js';

describe('csvField', () => {
  const cases: [string | number, string][] = [
    ['plain', 'plain'],
    [12.5, '12.5'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['', ''],
    [' spaced ', ' spaced '],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(csvField(input), expected);
    });
  }
});

describe('csvRecord', () => {
  test('ends with CRLF and reads back field for field', () => {
    const fields = ['a,b', 'say "hi"', 'two\r\nlines', '7'];
    const record = csvRecord(fields);
    assert.ok(record.endsWith('\r\n'));
    assert.deepEqual(parseCsv(record), [fields]);
  });
});
