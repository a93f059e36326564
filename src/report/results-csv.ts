import { InputError } from '../errors.js';
import { FLAVORS, isFlavor, parseVersion, VersionParseError } from '../version/index.js';
import { csvRecord, unneutralizeFormula } from './csv.js';
import { RATE_FIGURES, type Figures, type TestId } from '../model/index.js';
import { InvalidReportDataError } from './errors.js';
import { printable } from './text-layout.js';

/** One measured result: a test of one release of one flavor at one thread count, with its per-op figures. */
export interface ResultRow extends Figures, TestId {
  flavor: string;
  version: string;
}

const KEY_COLUMNS = ['flavor', 'version', 'test', 'threads', 'qps'] as const;
type ResultsColumn = (typeof KEY_COLUMNS)[number] | PerOpCsv;
type PerOpCsv = (typeof RATE_FIGURES)[number]['csv'];

/**
 * The key of a result and its QPS, then one column per rate figure of the figure table: the reference studies'
 * columns, which every result has. Time figures are not part of the file (results imported have none).
 */
export const RESULTS_CSV_HEADER: readonly ResultsColumn[] = [...KEY_COLUMNS, ...RATE_FIGURES.map((f) => f.csv)];

const FIELD_OF = {
  ...(Object.fromEntries(KEY_COLUMNS.map((column) => [column, column])) as Record<
    (typeof KEY_COLUMNS)[number],
    keyof ResultRow
  >),
  ...(Object.fromEntries(RATE_FIGURES.map((f) => [f.csv, f.field])) as Record<PerOpCsv, keyof ResultRow>),
};

/**
 * A results file that cannot be read. `column` is the header name the problem is in (null when it is the whole
 * line), `value` the offending text (null when there is none); both are data, the message shows them escaped.
 */
export class ResultsCsvError extends InputError {
  readonly file: string;
  readonly line: number;
  readonly column: string | null;
  readonly value: string | null;

  constructor(where: { file: string; line: number; column: string | null; value: string | null }, message: string) {
    super(message);
    this.name = new.target.name;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.value = where.value;
  }
}

const MAX_SHOWN = 40;
const MAX_TEST_NAME = 100;
const EXPECTED_HEADER = RESULTS_CSV_HEADER.join(',');

/** A value as JSON text cut to 40 characters; also escapes what JSON lets through raw (DEL, C1, line separators). */
function shown(value: string): string {
  let body = '';
  for (const char of value) {
    const piece = JSON.stringify(char)
      .slice(1, -1)
      .replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (body.length + piece.length + 2 > MAX_SHOWN) return `"${body}…`;
    body += piece;
  }
  return `"${body}"`;
}

// ---- Reading RFC 4180 records -----------------------------------------------------------------------------------

interface CsvRecord {
  fields: string[];
  /** The line the record starts on, 1-based (a quoted field may span lines). */
  line: number;
  /** Nothing at all on the line (a lone "" is a field, not a blank line). */
  blank: boolean;
}

/** A syntax problem found while reading; turned into a ResultsCsvError once the header's names are known. */
class CsvSyntax {
  constructor(
    readonly line: number,
    readonly field: number,
    readonly text: string,
    readonly problem: string,
  ) {}
}

const isLineEnd = (text: string, i: number): boolean => text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n');

/** Reads one field starting at `at`; returns it and where it ended (at a comma, a line end or the end). */
function readField(
  text: string,
  at: number,
  line: number,
  field: number,
): { value: string; end: number; lines: number } {
  if (text[at] !== '"') {
    let end = at;
    while (end < text.length && text[end] !== ',' && !isLineEnd(text, end)) {
      if (text[end] === '"')
        throw new CsvSyntax(
          line,
          field,
          text.slice(at, end + 1),
          'holds a quote in an unquoted field; quote the whole field and double the quotes inside ("a""b")',
        );
      if (text[end] === '\r')
        throw new CsvSyntax(
          line,
          field,
          text.slice(at, end + 1),
          'holds a carriage return outside quotes; end lines with LF or CRLF, or quote the field',
        );
      end += 1;
    }
    return { value: text.slice(at, end), end, lines: 0 };
  }
  let value = '';
  let lines = 0;
  for (let i = at + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' && text[i + 1] === '"') {
      value += '"';
      i += 1;
    } else if (char === '"') {
      if (i + 1 < text.length && text[i + 1] !== ',' && !isLineEnd(text, i + 1)) {
        throw new CsvSyntax(
          line + lines,
          field,
          value,
          'has text after its closing quote; a quote inside a quoted field is written twice ("")',
        );
      }
      return { value, end: i + 1, lines };
    } else {
      if (char === '\n') lines += 1;
      value += char;
    }
  }
  throw new CsvSyntax(
    line,
    field,
    value,
    'opens a quote that is never closed; close it, and double every quote inside ("")',
  );
}

/** RFC 4180 records, CRLF or LF line ends, the final line end optional. */
function* csvRecords(text: string): Generator<CsvRecord> {
  let at = 0;
  let line = 1;
  while (at < text.length) {
    const record: CsvRecord = { fields: [], line, blank: isLineEnd(text, at) };
    for (;;) {
      const field = readField(text, at, line, record.fields.length);
      record.fields.push(field.value);
      line += field.lines;
      at = field.end;
      if (text[at] !== ',') break;
      at += 1;
    }
    at += text[at] === '\r' ? 2 : 1;
    line += 1;
    yield record;
  }
}

// ---- Checking fields -------------------------------------------------------------------------------------------

type Checked = { ok: true; value: string | number } | { ok: false; problem: string };
const ok = (value: string | number): Checked => ({ ok: true, value });
const bad = (problem: string): Checked => ({ ok: false, problem });

/** Plain decimal notation, as String(n) writes it: no hex, no "Infinity", no blanks, no empty text. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function checkNumber(text: string, rule: string, positive: boolean): Checked {
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n)) return bad(`is not a number; ${rule}`);
  if (n < 0) return bad(`is negative; ${rule}`);
  if (positive && n === 0) return bad(`is 0; ${rule}`);
  return ok(n);
}

function checkVersion(text: string): Checked {
  try {
    return ok(parseVersion(text).text);
  } catch (err) {
    if (err instanceof VersionParseError) return bad(`is not a version; expected ${err.expected}`);
    throw err;
  }
}

function checkTest(text: string): Checked {
  if (text === '') return bad('is empty; give the name of the test');
  if (/\p{Cc}/u.test(text)) return bad('holds a control character; a test name is printable text');
  if (text.length > MAX_TEST_NAME)
    return bad(`is ${text.length} characters long; a test name has at most ${MAX_TEST_NAME}`);
  return ok(text);
}

const perOp = (column: string) => (text: string) =>
  checkNumber(text, `${column} must be a number of at least 0`, false);

const CHECKS: Record<ResultsColumn, (text: string) => Checked> = {
  flavor: (text) => (isFlavor(text) ? ok(text) : bad(`is not a known flavor; use one of ${FLAVORS.join(', ')}`)),
  version: checkVersion,
  test: checkTest,
  threads: (text) =>
    /^\d+$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text))
      ? ok(Number(text))
      : bad('is not a whole number of at least 1; give the thread count, e.g. 4'),
  qps: (text) => checkNumber(text, 'QPS must be a number greater than 0', true),
  ...(Object.fromEntries(RATE_FIGURES.map((f) => [f.csv, perOp(f.csv)])) as Record<
    PerOpCsv,
    (text: string) => Checked
  >),
};

const rowKey = (row: ResultRow): string => JSON.stringify([row.flavor, row.version, row.test, row.threads]);

// ---- Writing ---------------------------------------------------------------------------------------------------

/**
 * The header and one CRLF-ended line per row. Every row is checked as parseResultsCsv would check it, so what is
 * written reads back to the same rows; a row that would not throws InvalidReportDataError (a bug of the caller).
 */
export function formatResultsCsv(rows: readonly ResultRow[]): string {
  const seen = new Set<string>();
  const lines = rows.map((row, i) => {
    const fields = RESULTS_CSV_HEADER.map((column) => String(row[FIELD_OF[column]]));
    RESULTS_CSV_HEADER.forEach((column, c) => {
      const checked = CHECKS[column](fields[c]!);
      if (!checked.ok) throw new InvalidReportDataError(`rows[${i}].${FIELD_OF[column]}`, fields[c], checked.problem);
      if (checked.value !== row[FIELD_OF[column]])
        throw new InvalidReportDataError(
          `rows[${i}].${FIELD_OF[column]}`,
          fields[c],
          `reads back as ${checked.value}; write the canonical form`,
        );
    });
    if (seen.has(rowKey(row)))
      throw new InvalidReportDataError(
        `rows[${i}]`,
        rowKey(row),
        'repeats an earlier row of the same flavor, version, test and threads',
      );
    seen.add(rowKey(row));
    return csvRecord(fields);
  });
  return csvRecord(RESULTS_CSV_HEADER) + lines.join('');
}

// ---- Parsing ---------------------------------------------------------------------------------------------------

/** All of the file's rows, or a ResultsCsvError for the first problem: never a part of the file. */
export function parseResultsCsv(text: string, fileName: string): ResultRow[] {
  const file = printable(fileName);
  const records = readAll(text.startsWith('\uFEFF') ? text.slice(1) : text, file);
  while (records.at(-1)?.blank === true) records.pop();
  const header = records[0];
  if (header === undefined) {
    throw new ResultsCsvError(
      { file, line: 1, column: null, value: null },
      `${file} line 1: the file is empty; expected the header ${EXPECTED_HEADER} and one line per result`,
    );
  }
  const index = headerIndex(header, file);
  const rows: ResultRow[] = [];
  const lineOf = new Map<string, number>();
  for (const record of records.slice(1)) {
    const row = parseRow(record, header.fields, index, file);
    const earlier = lineOf.get(rowKey(row));
    if (earlier !== undefined) {
      const value = `${row.flavor} ${row.version} ${row.test} threads ${row.threads}`;
      throw new ResultsCsvError(
        { file, line: record.line, column: null, value },
        `${file} line ${record.line}: ${shown(value)} repeats line ${earlier}; ` +
          `keep one row per flavor, version, test and threads`,
      );
    }
    lineOf.set(rowKey(row), record.line);
    rows.push(row);
  }
  return rows;
}

function readAll(text: string, file: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  try {
    for (const record of csvRecords(text)) records.push(record);
    return records;
  } catch (err) {
    if (!(err instanceof CsvSyntax)) throw err;
    const column = records.length === 0 ? null : (records[0]!.fields[err.field] ?? null);
    const place = column === null ? `field ${err.field + 1}` : `column ${printable(column)}`;
    throw new ResultsCsvError(
      { file, line: err.line, column, value: err.text },
      `${file} line ${err.line}, ${place}: ${shown(err.text)} ${err.problem}`,
    );
  }
}

/** Where each required column is; extra columns are allowed, a missing or repeated required one is not. */
function headerIndex(header: CsvRecord, file: string): Record<ResultsColumn, number> {
  const names = header.fields;
  for (const column of RESULTS_CSV_HEADER) {
    const first = names.indexOf(column);
    const fail = (problem: string): never => {
      throw new ResultsCsvError(
        { file, line: header.line, column, value: null },
        `${file} line ${header.line}: ${problem}`,
      );
    };
    if (first < 0) fail(`the header lacks column ${column}; expected ${EXPECTED_HEADER} (extra columns are allowed)`);
    const again = names.indexOf(column, first + 1);
    if (again >= 0) fail(`the header has column ${column} twice (fields ${first + 1} and ${again + 1}); keep one`);
  }
  return Object.fromEntries(RESULTS_CSV_HEADER.map((column) => [column, names.indexOf(column)])) as Record<
    ResultsColumn,
    number
  >;
}

function parseRow(
  record: CsvRecord,
  header: readonly string[],
  index: Record<ResultsColumn, number>,
  file: string,
): ResultRow {
  const where = { file, line: record.line };
  if (record.blank) {
    throw new ResultsCsvError(
      { ...where, column: null, value: '' },
      `${file} line ${record.line}: the line is empty; remove it (only empty lines at the end are ignored)`,
    );
  }
  if (record.fields.length !== header.length) throw fieldCountError(record, header, file);
  const row: Record<string, string | number> = {};
  for (const column of RESULTS_CSV_HEADER) {
    // What formatResultsCsv neutralized for spreadsheets ('=x) reads back as written (=x).
    const text = unneutralizeFormula(record.fields[index[column]]!);
    const checked = CHECKS[column](text);
    if (!checked.ok) {
      throw new ResultsCsvError(
        { ...where, column, value: text },
        `${file} line ${record.line}, column ${column}: ${shown(text)} ${checked.problem}`,
      );
    }
    row[FIELD_OF[column]] = checked.value;
  }
  return row as unknown as ResultRow;
}

function fieldCountError(record: CsvRecord, header: readonly string[], file: string): ResultsCsvError {
  const count = `${file} line ${record.line}: ${record.fields.length} fields where the header has ${header.length}`;
  if (record.fields.length < header.length) {
    const column = header[record.fields.length]!;
    return new ResultsCsvError(
      { file, line: record.line, column, value: null },
      `${count} (nothing for column ${printable(column)}); give every column ` +
        `a value, and quote a value that holds a comma ("a,b")`,
    );
  }
  const value = record.fields[header.length]!;
  return new ResultsCsvError(
    { file, line: record.line, column: null, value },
    `${count} (one more is ${shown(value)}); quote a value that holds a ` +
      `comma ("a,b"), or name the extra column in the header`,
  );
}
