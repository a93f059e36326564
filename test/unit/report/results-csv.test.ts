import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatResultsCsv,
  InvalidReportDataError,
  parseResultsCsv,
  RESULTS_CSV_HEADER,
  ResultsCsvError,
  type ResultRow,
} from '../../../src/report/index.js';
import { InputError } from '../../../src/errors.js';
import { parseCsv } from './csv-parse.js';

const HEADER = RESULTS_CSV_HEADER.join(',');
const GOOD = 'mariadb,10.11.6,oltp-read,4,1234.5,12.25,0.5,0,0.125,3';

function row(overrides: Partial<ResultRow> = {}): ResultRow {
  return {
    flavor: 'mariadb',
    version: '10.11.6',
    test: 'oltp-read',
    threads: 4,
    qps: 1234.5,
    cpuPerOp: 12.25,
    csPerOp: 0.5,
    readsPerOp: 0,
    readKBPerOp: 0.125,
    writeKBPerOp: 3,
    ...overrides,
  };
}

/** The error parseResultsCsv throws for `text`; fails the test when it throws none or another kind. */
function errorOf(text: string, fileName = 'results.csv'): ResultsCsvError {
  try {
    parseResultsCsv(text, fileName);
  } catch (err) {
    assert.ok(err instanceof ResultsCsvError, `expected a ResultsCsvError, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be refused`);
}

/** A file with the standard header and these lines after it (line 2 onwards). */
const file = (...lines: string[]): string => [HEADER, ...lines].join('\n') + '\n';

describe('formatResultsCsv and parseResultsCsv', () => {
  const rows: ResultRow[] = [
    row(),
    row({
      flavor: 'percona',
      version: '8.0.36-28',
      test: 'select, "point" mix',
      threads: 1,
      qps: 0.1 + 0.2,
      cpuPerOp: 1e-7,
      readKBPerOp: 123456789.123,
    }),
    row({ flavor: 'mysql', version: '8.4.0', test: 'write only', threads: 64, qps: 5e21, csPerOp: Number.MIN_VALUE }),
    row({ test: 'ünïcödé ✓ 名前', threads: 2, qps: 1 / 3 }),
  ];

  test('round trip: format then parse gives the same rows, names with commas and quotes too', () => {
    assert.deepEqual(parseResultsCsv(formatResultsCsv(rows), 'r.csv'), rows);
  });

  test('writes the header and one RFC 4180 record per row', () => {
    const records = parseCsv(formatResultsCsv(rows));
    assert.deepEqual(records[0], [...RESULTS_CSV_HEADER]);
    assert.equal(records.length, rows.length + 1);
    assert.equal(records[2]![2], 'select, "point" mix');
    assert.equal(records[2]![4], '0.30000000000000004');
  });

  test('no rows: the header alone, which parses back to no rows', () => {
    assert.equal(formatResultsCsv([]), `${HEADER}\r\n`);
    assert.deepEqual(parseResultsCsv(formatResultsCsv([]), 'r.csv'), []);
  });

  const unwritable: [string, Partial<ResultRow>, string][] = [
    ['NaN qps', { qps: Number.NaN }, 'rows[0].qps'],
    ['Infinity per op', { cpuPerOp: Number.POSITIVE_INFINITY }, 'rows[0].cpuPerOp'],
    ['unknown flavor', { flavor: 'oracle' }, 'rows[0].flavor'],
    ['non-canonical version', { version: '10.11.06' }, 'rows[0].version'],
    ['fractional threads', { threads: 1.5 }, 'rows[0].threads'],
    ['newline in a test name', { test: 'a\nb' }, 'rows[0].test'],
  ];
  for (const [name, overrides, path] of unwritable) {
    test(`refuses to write a row that would not read back: ${name}`, () => {
      assert.throws(
        () => formatResultsCsv([row(overrides)]),
        (err: unknown) => err instanceof InvalidReportDataError && err.path === path,
      );
    });
  }

  test('refuses to write two rows of the same flavor, version, test and threads', () => {
    assert.throws(() => formatResultsCsv([row(), row({ qps: 1 })]), InvalidReportDataError);
  });
});

describe('parseResultsCsv reads', () => {
  test('a UTF-8 BOM before the header', () => {
    assert.deepEqual(parseResultsCsv(`\uFEFF${file(GOOD)}`, 'r.csv'), [row()]);
  });

  test('CRLF, LF and no final newline alike', () => {
    assert.deepEqual(parseResultsCsv(`${HEADER}\r\n${GOOD}\r\n`, 'r.csv'), [row()]);
    assert.deepEqual(parseResultsCsv(`${HEADER}\n${GOOD}`, 'r.csv'), [row()]);
    assert.deepEqual(parseResultsCsv(`${HEADER}\r\n${GOOD}`, 'r.csv'), [row()]);
  });

  test('empty lines at the end', () => {
    assert.deepEqual(parseResultsCsv(`${HEADER}\n${GOOD}\n\n\r\n\n`, 'r.csv'), [row()]);
  });

  test('columns in any order, extra columns ignored', () => {
    const text =
      'note,wkb_o,rkb_o,r_o,cs_o,cpu_o,qps,threads,test,version,flavor,note\n' +
      '"any, thing",3,0.125,0,0.5,12.25,1234.5,4,oltp-read,10.11.6,mariadb,x\n';
    assert.deepEqual(parseResultsCsv(text, 'r.csv'), [row()]);
  });

  test('quoted fields: doubled quotes, commas and a line end inside', () => {
    const text = file('mariadb,"10.11.6","say ""hi"", then go",4,1234.5,12.25,0.5,0,0.125,3');
    assert.deepEqual(parseResultsCsv(text, 'r.csv'), [row({ test: 'say "hi", then go' })]);
  });

  test('a Percona build version, canonicalised', () => {
    assert.equal(parseResultsCsv(file('percona,8.0.36-28,t,1,1,0,0,0,0,0'), 'r.csv')[0]!.version, '8.0.36-28');
  });

  test('a header without rows as no rows', () => {
    assert.deepEqual(parseResultsCsv(`${HEADER}\n`, 'r.csv'), []);
  });
});

describe('parseResultsCsv refuses', () => {
  test('a negative QPS, in the message of the brief', () => {
    const err = errorOf(
      file(
        GOOD,
        GOOD.replace('oltp-read', 'b'),
        GOOD.replace('oltp-read', 'c'),
        GOOD.replace('oltp-read', 'd'),
        GOOD.replace('oltp-read', 'e'),
        'mariadb,10.11.6,f,4,-12,1,1,1,1,1',
      ),
    );
    assert.equal(err.message, 'results.csv line 7, column qps: "-12" is negative; QPS must be a number greater than 0');
    assert.deepEqual([err.file, err.line, err.column, err.value], ['results.csv', 7, 'qps', '-12']);
  });

  test('a header that lacks a column, in the message of the brief', () => {
    const err = errorOf(`${HEADER.replace(',cpu_o', '')}\n`);
    assert.equal(
      err.message,
      `results.csv line 1: the header lacks column cpu_o; expected ${HEADER} (extra columns are allowed)`,
    );
    assert.deepEqual([err.line, err.column], [1, 'cpu_o']);
  });

  test('a required column twice', () => {
    const err = errorOf(`${HEADER},qps\n`);
    assert.deepEqual([err.line, err.column], [1, 'qps']);
    assert.match(err.message, /^results\.csv line 1: the header has column qps twice \(fields 5 and 11\); keep one$/);
  });

  const empties: [string, string][] = [
    ['nothing', ''],
    ['a BOM alone', '\uFEFF'],
    ['empty lines alone', '\n\r\n\n'],
  ];
  for (const [name, text] of empties) {
    test(`an empty file: ${name}`, () => {
      const err = errorOf(text);
      assert.equal(err.line, 1);
      assert.match(err.message, /^results\.csv line 1: the file is empty; expected the header flavor,version,/);
    });
  }

  // [what, line 2 of the file, column, value, the message after "results.csv line 2, column X: "]
  const badFields: [string, string, string, string, string][] = [
    [
      'unknown flavor',
      'oracle,10.11.6,t,1,1,0,0,0,0,0',
      'flavor',
      'oracle',
      '"oracle" is not a known flavor; use one of mariadb, mysql, percona',
    ],
    [
      'flavor in capitals',
      'MariaDB,10.11.6,t,1,1,0,0,0,0,0',
      'flavor',
      'MariaDB',
      '"MariaDB" is not a known flavor; use one of mariadb, mysql, percona',
    ],
    [
      'bad version',
      'mysql,8.0,t,1,1,0,0,0,0,0',
      'version',
      '8.0',
      '"8.0" is not a version; expected MAJOR.MINOR.PATCH',
    ],
    ['empty test', 'mysql,8.0.36,,1,1,0,0,0,0,0', 'test', '', '"" is empty; give the name of the test'],
    [
      'control character in test',
      'mysql,8.0.36,a\tb,1,1,0,0,0,0,0',
      'test',
      'a\tb',
      '"a\\tb" holds a control character',
    ],
    ['DEL in test', 'mysql,8.0.36,a\u007fb,1,1,0,0,0,0,0', 'test', 'a\u007fb', '"a\\u007fb" holds a control character'],
    [
      'test name too long',
      `mysql,8.0.36,${'x'.repeat(101)},1,1,0,0,0,0,0`,
      'test',
      'x'.repeat(101),
      `"${'x'.repeat(38)}… is 101 characters long; a test name has at most 100`,
    ],
    [
      'threads 0',
      'mysql,8.0.36,t,0,1,0,0,0,0,0',
      'threads',
      '0',
      '"0" is not a whole number of at least 1; give the thread count, e.g. 4',
    ],
    [
      'threads fractional',
      'mysql,8.0.36,t,1.5,1,0,0,0,0,0',
      'threads',
      '1.5',
      '"1.5" is not a whole number of at least 1',
    ],
    ['threads negative', 'mysql,8.0.36,t,-2,1,0,0,0,0,0', 'threads', '-2', '"-2" is not a whole number of at least 1'],
    ['qps 0', 'mysql,8.0.36,t,1,0,0,0,0,0,0', 'qps', '0', '"0" is 0; QPS must be a number greater than 0'],
    [
      'qps text',
      'mysql,8.0.36,t,1,fast,0,0,0,0,0',
      'qps',
      'fast',
      '"fast" is not a number; QPS must be a number greater than 0',
    ],
    ['qps empty', 'mysql,8.0.36,t,1,,0,0,0,0,0', 'qps', '', '"" is not a number'],
    ['qps Infinity', 'mysql,8.0.36,t,1,Infinity,0,0,0,0,0', 'qps', 'Infinity', '"Infinity" is not a number'],
    ['qps overflowing', 'mysql,8.0.36,t,1,1e999,0,0,0,0,0', 'qps', '1e999', '"1e999" is not a number'],
    ['qps in hex', 'mysql,8.0.36,t,1,0x10,0,0,0,0,0', 'qps', '0x10', '"0x10" is not a number'],
    ['qps with blanks', 'mysql,8.0.36,t,1, 5,0,0,0,0,0', 'qps', ' 5', '" 5" is not a number'],
    [
      'negative cpu_o',
      'mysql,8.0.36,t,1,1,-0.5,0,0,0,0',
      'cpu_o',
      '-0.5',
      '"-0.5" is negative; cpu_o must be a number of at least 0',
    ],
    [
      'NaN cs_o',
      'mysql,8.0.36,t,1,1,0,NaN,0,0,0',
      'cs_o',
      'NaN',
      '"NaN" is not a number; cs_o must be a number of at least 0',
    ],
    ['negative r_o', 'mysql,8.0.36,t,1,1,0,0,-1,0,0', 'r_o', '-1', '"-1" is negative; r_o must'],
    ['text rkb_o', 'mysql,8.0.36,t,1,1,0,0,0,x,0', 'rkb_o', 'x', '"x" is not a number; rkb_o must'],
    ['negative wkb_o', 'mysql,8.0.36,t,1,1,0,0,0,0,-3', 'wkb_o', '-3', '"-3" is negative; wkb_o must'],
  ];
  for (const [what, line, column, value, message] of badFields) {
    test(`${what}: line 2, column ${column}`, () => {
      const err = errorOf(file(line));
      assert.deepEqual([err.file, err.line, err.column, err.value], ['results.csv', 2, column, value]);
      assert.ok(err.message.startsWith(`results.csv line 2, column ${column}: ${message}`), err.message);
      assert.ok(!err.message.includes('\n'), 'one line');
    });
  }

  test('the column is named by the header even when columns are in another order', () => {
    const err = errorOf(
      'qps,flavor,version,test,threads,cpu_o,cs_o,r_o,rkb_o,wkb_o\n5,mariadb,10.11.6,t,1,0,0,0,-1,0\n',
    );
    assert.deepEqual([err.line, err.column, err.value], [2, 'rkb_o', '-1']);
  });

  test('a duplicate (flavor, version, test, threads) row, naming both lines', () => {
    const err = errorOf(file(GOOD, GOOD.replace(',4,', ',8,'), GOOD.replace('1234.5', '99')));
    assert.equal(err.line, 4);
    assert.match(
      err.message,
      /^results\.csv line 4: "mariadb 10\.11\.6 oltp-read threads 4" repeats line 2; keep one row per/,
    );
  });

  test('the same version written two ways is the same row', () => {
    const err = errorOf(file('percona,8.0.36-28,t,1,1,0,0,0,0,0', 'percona,8.0.036-28,t,1,1,0,0,0,0,0'));
    assert.equal(err.line, 3);
  });

  test('a row with too few fields names the first column without a value', () => {
    const err = errorOf(file(GOOD, 'mariadb,10.11.6,t,4,1,0,0,0,0'));
    assert.deepEqual([err.line, err.column], [3, 'wkb_o']);
    assert.match(err.message, /^results\.csv line 3: 9 fields where the header has 10 \(nothing for column wkb_o\)/);
  });

  test('a row with too many fields shows the first extra value', () => {
    const err = errorOf(file('mariadb,10.11.6,a,b,4,1,0,0,0,0,0'));
    assert.deepEqual([err.line, err.column, err.value], [2, null, '0']);
    assert.match(
      err.message,
      /^results\.csv line 2: 11 fields where the header has 10 \(one more is "0"\); quote a value that holds a comma/,
    );
  });

  test('an empty line before the last row', () => {
    const err = errorOf(file(GOOD, '', GOOD.replace(',4,', ',8,')));
    assert.equal(err.line, 3);
    assert.match(err.message, /^results\.csv line 3: the line is empty; remove it/);
  });

  test('line numbers count the lines inside quoted fields', () => {
    const err = errorOf(
      `${HEADER},note\nmariadb,10.11.6,t,4,1,0,0,0,0,0,"two\nlines"\nmariadb,10.11.6,t,8,-1,0,0,0,0,0,\n`,
    );
    assert.deepEqual([err.line, err.column], [4, 'qps']);
  });

  test('line numbers count CRLF line ends once', () => {
    const err = errorOf(`${HEADER}\r\n${GOOD}\r\nmysql,8.0.36,t,1,1,0,0,0,0,-3\r\n`);
    assert.deepEqual([err.line, err.column], [3, 'wkb_o']);
  });

  const syntax: [string, string, number, string, RegExp][] = [
    [
      'a quote inside an unquoted field',
      'mariadb,10.11.6,a"b,4,1,0,0,0,0,0',
      2,
      'test',
      /column test: "a\\"" holds a quote in an unquoted field/,
    ],
    [
      'text after a closing quote',
      'mariadb,10.11.6,"a"b,4,1,0,0,0,0,0',
      2,
      'test',
      /column test: "a" has text after its closing quote/,
    ],
    [
      'a quote never closed',
      `${GOOD}\nmariadb,10.11.6,"open,4,1,0,0,0,0,0`,
      3,
      'test',
      /line 3, column test: "open,4,1,0,0,0,0,0\\n" opens a quote that is never closed/,
    ],
    [
      'a carriage return alone',
      'mariadb,10.11.6,a\rb,4,1,0,0,0,0,0',
      2,
      'test',
      /column test: "a\\r" holds a carriage return outside quotes/,
    ],
  ];
  for (const [what, line, at, column, message] of syntax) {
    test(`bad CSV: ${what}`, () => {
      const err = errorOf(file(line));
      assert.deepEqual([err.line, err.column], [at, column]);
      assert.match(err.message, message);
    });
  }

  test('bad CSV in the header names the field by number', () => {
    const err = errorOf(`flavor,ver"sion\n`);
    assert.deepEqual([err.line, err.column], [1, null]);
    assert.match(err.message, /^results\.csv line 1, field 2: "ver\\"" holds a quote/);
  });
});

describe('ResultsCsvError messages are one safe line', () => {
  test('values are shown as JSON, cut to 40 characters', () => {
    const err = errorOf(file(`oracle${'x'.repeat(60)},10.11.6,t,1,1,0,0,0,0,0`));
    const shownValue = /column flavor: (".*?…?) is not/.exec(err.message)![1]!;
    assert.equal(shownValue.length, 40);
    assert.ok(shownValue.endsWith('…'));
    assert.equal(err.value, `oracle${'x'.repeat(60)}`, 'the field keeps the whole value');
  });

  test('control characters and line separators never reach the message raw', () => {
    const nasty = 'a\u001b[31m\u0085\u2028\u009bz';
    const err = errorOf(file(`"${nasty}",10.11.6,t,1,1,0,0,0,0,0`));
    assert.equal(err.value, nasty);
    assert.doesNotMatch(err.message, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    assert.match(err.message, /"a\\u001b\[31m\\u0085\\u2028\\u009bz" is not a known flavor/);
  });

  test('an escape is never cut in half', () => {
    const err = errorOf(file(`"${'x'.repeat(30)}\u0001\u0001",10.11.6,t,1,1,0,0,0,0,0`));
    assert.match(err.message, /column flavor: "x{30}\\u0001… is not/);
  });

  test('the file name is data too', () => {
    const err = errorOf('', 'evil\nname.csv');
    assert.ok(err.message.startsWith('evil\\nname.csv line 1: '), err.message);
  });

  test('is an InputError, so the CLI prints it alone with exit code 2', () => {
    assert.ok(errorOf('') instanceof InputError);
  });
});
