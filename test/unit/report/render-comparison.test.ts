import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  InvalidReportDataError,
  parseReportFormat,
  renderComparison,
  REPORT_FORMATS,
  UnknownReportFormatError,
  type ComparisonView,
} from '../../../src/report/index.js';
import { fixturePath } from '../../helpers/paths.js';
import { parseCsv } from './csv-parse.js';
import { sampleView } from './sample-view.js';

const AWKWARD_TEST = 'read, "hot"\nrows|x';

function awkwardView(): ComparisonView {
  const view = sampleView();
  const [first] = view.tests;
  assert.ok(first);
  first.test = AWKWARD_TEST;
  view.suite = 'suite, "quoted"';
  return view;
}

describe('renderComparison text', () => {
  test('matches the golden output for the sample view', () => {
    const golden = readFileSync(fixturePath('report', 'comparison-small.txt'), 'utf8');
    assert.equal(renderComparison(sampleView(), 'text'), golden);
  });

  test('a name holding a newline stays on its row, escaped', () => {
    const text = renderComparison(awkwardView(), 'text');
    const plain = renderComparison(sampleView(), 'text');
    assert.equal(text.split('\n').length, plain.split('\n').length);
    assert.match(text, /^read, "hot"\\nrows\|x\.t1 +12345 +11800 +0\.96 /m);
  });

  test('a session without tests says so', () => {
    const view = { ...sampleView(), tests: [] };
    assert.match(renderComparison(view, 'text'), /^\(no tests in this session\)$/m);
  });
});

describe('renderComparison md', () => {
  test('matches the golden output for the sample view', () => {
    const golden = readFileSync(fixturePath('report', 'comparison-small.md'), 'utf8');
    assert.equal(renderComparison(sampleView(), 'md'), golden);
  });

  test('data with pipes and newlines keeps every table row at its column count', () => {
    const md = renderComparison(awkwardView(), 'md');
    const tables = md.split('\n\n').filter((block) => block.startsWith('|'));
    assert.equal(tables.length, 4);
    for (const table of tables) {
      const counts = table.trimEnd().split('\n').map((line) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length);
      assert.equal(new Set(counts).size, 1, table);
    }
    assert.match(md, /^\| read, "hot" rows\\\|x\.t1 \| 12345 \|/m);
  });
});

describe('renderComparison csv', () => {
  test('one record per test and side under the documented header', () => {
    const records = parseCsv(renderComparison(sampleView(), 'csv'));
    assert.deepEqual(records[0], [
      'suite', 'test', 'threads', 'role', 'target', 'flavor', 'version', 'qps', 'relative_qps',
      'cpu_o', 'cs_o', 'r_o', 'rkb_o', 'wkb_o', 'cpu_us_o', 'verdict',
    ]);
    assert.equal(records.length, 1 + 2 * 2);
    assert.deepEqual(records[1], ['small-server', 'point-query', '1', 'baseline', 'mariadb-10.11.9', 'mariadb', '10.11.9', '12345.4', '1', '0.000312', '5.1', '0', '0', '0.00312', '24.96', '']);
    assert.deepEqual(records[2]?.slice(3, 9), ['candidate', 'mariadb-10.11.10', 'mariadb', '10.11.10', '11800.2', String(11800.2 / 12345.4)]);
  });

  test('names with commas, quotes and newlines read back unchanged', () => {
    const records = parseCsv(renderComparison(awkwardView(), 'csv'));
    assert.equal(records.length, 5);
    for (const record of records.slice(1)) assert.equal(record.length, 16);
    assert.deepEqual(records[1]?.slice(0, 2), ['suite, "quoted"', AWKWARD_TEST]);
    assert.deepEqual(records[2]?.slice(0, 2), ['suite, "quoted"', AWKWARD_TEST]);
  });
});

describe('verdicts', () => {
  const judged = (): ComparisonView => {
    const view = sampleView();
    const [first, second] = view.tests;
    first!.verdict = {
      kind: 'regression', threshold: 0.95, pSlower: 0.0143, pFaster: 1, baselineSpread: 0.02,
      hint: [{ metric: 'wKB/o', baseline: 0.5, candidate: 15, ratio: 30 }, { metric: 'r/o', baseline: 0, candidate: 0.1, ratio: null }],
    };
    second!.verdict = { kind: 'unstable', threshold: 0.95, pSlower: 0.4, pFaster: 0.6, baselineSpread: 0.12, hint: [] };
    return view;
  };

  test('text shows the verdict column and a line per test that is not ok, with the hint', () => {
    const text = renderComparison(judged(), 'text');
    assert.match(text, /^test\s+B\.qps.*verdict$/m);
    assert.match(text, /^point-query\.t1: regression, C\/B 0\.96 < 0\.95, p=0\.0143; grew: wKB\/o x30\.00, r\/o from 0$/m);
    assert.match(text, /^update-index\.t1: unstable, C\/B 1\.04: the baseline varies 12(\.0)?% between rounds, more than the 5(\.0)?% margin; rerun/m);
  });

  test('an unstable test under the threshold says the drop was not significant, not that the baseline varies', () => {
    const view = judged();
    const second = view.tests[1]!;
    second.relativeQps = 0.8;
    second.verdict = { kind: 'unstable', threshold: 0.95, pSlower: 0.04, pFaster: 0.9, baselineSpread: 0.01, hint: [] };
    assert.match(renderComparison(view, 'text'), /^update-index\.t1: unstable, C\/B 0\.80 < 0\.95, but the rounds taken cannot call the drop significant \(p=0\.04\): inconclusive; rerun/m);
  });

  test('json keeps the verdict; csv names it on both records of the test', () => {
    const view = judged();
    assert.deepEqual(JSON.parse(renderComparison(view, 'json')), view);
    const records = parseCsv(renderComparison(view, 'csv'));
    assert.deepEqual(records.slice(1).map((r) => r.at(-1)), ['regression', 'regression', 'unstable', 'unstable']);
  });

  test('a session without verdicts has no verdict column', () => {
    assert.doesNotMatch(renderComparison(sampleView(), 'text'), /verdict/);
  });
});

describe('renderComparison json', () => {
  test('round-trips to the same view, numbers as numbers', () => {
    const view = sampleView();
    const parsed: unknown = JSON.parse(renderComparison(view, 'json'));
    assert.deepEqual(parsed, view);
  });

  test('key order is stable whatever order the input was built in', () => {
    const view = sampleView();
    const reversed = JSON.parse(JSON.stringify(view), (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    ) as ComparisonView;
    assert.notDeepEqual(Object.keys(reversed), Object.keys(view));
    const json = renderComparison(reversed, 'json');
    assert.equal(json, renderComparison(view, 'json'));
    assert.deepEqual(Object.keys(JSON.parse(json) as object), ['sessionId', 'suite', 'rounds', 'startedAt', 'finishedAt', 'baseline', 'candidate', 'host', 'tests']);
    assert.deepEqual(Object.keys((JSON.parse(json) as ComparisonView).host), ['cores', 'cpuModel', 'kernel', 'memoryGB', 'smt']);
  });
});

describe('formats', () => {
  test('the valid formats are text, md, csv, json and html', () => {
    assert.deepEqual(REPORT_FORMATS, ['text', 'md', 'csv', 'json', 'html']);
    assert.equal(parseReportFormat('html'), 'html');
  });

  test('an unknown format is a typed error listing the valid ones', () => {
    assert.throws(
      () => renderComparison(sampleView(), 'pdf'),
      (error: unknown) =>
        error instanceof UnknownReportFormatError &&
        error.format === 'pdf' &&
        error.valid.join() === 'text,md,csv,json,html' &&
        error.message === 'report format "pdf" is not known: use one of text, md, csv, json, html',
    );
  });

  test('inherited object keys are not formats', () => {
    assert.throws(() => parseReportFormat('toString'), UnknownReportFormatError);
  });
});

describe('garbage in', () => {
  const broken: [string, (view: ComparisonView) => void, string][] = [
    ['NaN per-op figure', (v) => { v.tests[0]!.candidate.perOp.cpuPerOp = Number.NaN; }, 'view.tests[0].candidate.perOp.cpuPerOp'],
    ['Infinity counter', (v) => { v.tests[1]!.baseline.dbPerOp['Innodb_rows_updated'] = Number.POSITIVE_INFINITY; }, 'view.tests[1].baseline.dbPerOp.Innodb_rows_updated'],
    ['NaN relative QPS', (v) => { v.tests[0]!.relativeQps = Number.NaN; }, 'view.tests[0].relativeQps'],
    ['median outside min-max', (v) => { v.tests[0]!.baseline.qpsMin = 20000; }, 'view.tests[0].baseline.qps'],
    ['negative QPS', (v) => { v.tests[1]!.candidate.qpsMin = -1; }, 'view.tests[1].candidate.qpsMin'],
    ['zero threads', (v) => { v.tests[1]!.threads = 0; }, 'view.tests[1].threads'],
    ['fractional samples', (v) => { v.tests[0]!.candidate.samples = 2.5; }, 'view.tests[0].candidate.samples'],
  ];
  for (const [what, breakIt, path] of broken) {
    for (const format of REPORT_FORMATS) {
      test(`${what} is refused in ${format}, naming ${path}`, () => {
        const view = sampleView();
        breakIt(view);
        assert.throws(() => renderComparison(view, format), (error: unknown) => error instanceof InvalidReportDataError && error.path === path);
      });
    }
  }
});
