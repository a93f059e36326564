import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidReportDataError, renderHistory, REPORT_FORMATS, UnknownReportFormatError, type ReportFormat } from '../../../src/report/index.js';
import type { HistoryView } from '../../../src/model/index.js';
import { parseCsv } from './csv-parse.js';
import { checkedHistory, sampleHistory } from './sample-history.js';

/** Cells of the text line that starts with `start`, split on runs of spaces. */
function textRow(text: string, start: string): string[] {
  const line = text.split('\n').find((l) => l.trimStart().startsWith(start));
  assert.ok(line !== undefined, `no line starting with ${start}`);
  return line.trim().split(/ {2,}/);
}

describe('renderHistory text', () => {
  const text = renderHistory(sampleHistory(), 'text');

  test('header: series, flavor, base, host and one numbered line per version, imported ones marked', () => {
    assert.match(text, /^qpswatch history: mariadb 10\.x\n=+\n/);
    assert.match(text, /^series 10\.x, flavor mariadb, base 10\.2\.30\* \(col-1\)$/m);
    assert.match(text, /^host: AMD Ryzen 7 7735HS, 8 cores, SMT off$/m);
    assert.match(text, /^col-1: 10\.2\.30\* \(ma100230\)\ncol-2: 10\.3\.39 \(ma100339\)\ncol-3: 10\.11\.9\n\* imported$/m);
  });

  test('relative QPS by version, two decimals, "-" where a version was not measured', () => {
    assert.deepEqual(textRow(text, 'test '), ['test', 'col-1', 'col-2', 'col-3']);
    assert.deepEqual(textRow(text, 'point-query.t1 '), ['point-query.t1', '1.00', '0.91', '1.23']);
    assert.deepEqual(textRow(text, 'insert.t16 '), ['insert.t16', '1.00', '-', '0.95']);
  });

  test('per-op table per test: absolute figures, the version, then relative; 0/0 = 1 and x/0 = inf', () => {
    const [, pointQuery = '', insert = ''] = text.split(/^Per operation: /m);
    assert.deepEqual(textRow(pointQuery, 'cpu/o'), ['cpu/o', 'cs/o', 'r/o', 'rKB/o', 'wKB/o', 'o/s', 'version', 'rel.cpu/o', 'rel.cs/o', 'rel.r/o', 'rel.rKB/o', 'rel.wKB/o', 'rel.o/s']);
    assert.deepEqual(textRow(pointQuery, '0.0004 '), ['0.0004', '5', '0', '0', '0.002', '10000', '10.2.30*', '1.00', '1.00', '1.00', '1.00', '1.00', '1.00']);
    assert.deepEqual(textRow(pointQuery, '0.00044 '), ['0.00044', '5.5', '0', '0.1', '0.002', '9100', '10.3.39', '1.10', '1.10', '1.00', 'inf', '1.00', '0.91']);
    assert.deepEqual(textRow(pointQuery, '0.00032 '), ['0.00032', '4', '0', '0', '0.003', '12300', '10.11.9', '0.80', '0.80', '1.00', '1.00', '1.50', '1.23']);
    assert.deepEqual(textRow(insert, '- '), ['-', '-', '-', '-', '-', '-', '10.3.39', '-', '-', '-', '-', '-', '-']);
    assert.deepEqual(textRow(insert, '0.0021 '), ['0.0021', '11', '0.5', '8', '25', '1900', '10.11.9', '1.05', '1.10', '1.00', '1.00', '1.25', '0.95']);
  });

  test('no footnote when nothing was imported', () => {
    const view = sampleHistory();
    const versions = view.versions.map((v) => ({ ...v, imported: false }));
    const plain = renderHistory({ ...view, versions }, 'text');
    assert.doesNotMatch(plain, /\*/);
  });

  test('a base measured at zero QPS: 0/0 prints 1.00, x/0 prints inf', () => {
    const view = sampleHistory();
    const figures = [...view.tests[0]!.figures];
    figures[0] = { ...figures[0]!, qps: 0 };
    figures[1] = { ...figures[1]!, qps: 0 };
    const text = renderHistory({ ...view, tests: [{ ...view.tests[0]!, figures }] }, 'text');
    assert.deepEqual(textRow(text, 'point-query.t1 '), ['point-query.t1', '1.00', '1.00', 'inf']);
  });
});

describe('renderHistory md', () => {
  test('tables in GFM, data escaped, every row at its column count', () => {
    const view = sampleHistory();
    view.tests[0]!.test = 'read|hot_*x*';
    view.versions[2]!.label = '[link](x)';
    const md = renderHistory(view, 'md');
    assert.match(md, /^\| read\\\|hot\\_\\\*x\\\*\.t1 \|  1\.00 \|  0\.91 \|  1\.23 \|$/m);
    assert.match(md, /^- col-3: 10\.11\.9 \(\\\[link\\\]\(x\)\)$/m);
    assert.match(md, /^- \\\* imported$/m);
    assert.match(md, /^\|  0\.0004 \|    5 \|   0 \|     0 \| 0\.002 \| 10000 \| 10\.2\.30\\\* \|/m);
    for (const table of md.split('\n\n').filter((block) => block.startsWith('|'))) {
      const counts = table.trimEnd().split('\n').map((line) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length);
      assert.equal(new Set(counts).size, 1, table);
    }
  });
});

describe('renderHistory detectable drop', () => {
  test('a table per version: the newest valid check\'s detectable drop, whole percents rounded up, "-" where not checked', () => {
    const text = renderHistory(checkedHistory(), 'text');
    assert.match(text, /^Detectable drop \(the newest valid check of each version\)$/m);
    const section = text.slice(text.indexOf('Detectable drop'));
    const row = (start: string): string[] => textRow(section, start);
    assert.deepEqual(row('test '), ['test', 'col-1', 'col-2', 'col-3']);
    assert.deepEqual(row('point-query.t1 '), ['point-query.t1', '-', '5%', '12%']);
    assert.deepEqual(row('insert.t16 '), ['insert.t16', '-', '-', '5%']);
  });

  test('md and html carry the same table', () => {
    assert.match(renderHistory(checkedHistory(), 'md'), /^\| point-query\.t1 +\| +- \| +5% \| +12% \|$/m);
    assert.match(renderHistory(checkedHistory(), 'html'), />point-query\.t1<\/td><td align="right"[^>]*>-<\/td><td align="right"[^>]*>5%<\/td><td align="right"[^>]*>12%<\/td>/);
  });

  test('a history without any checked version has no such table', () => {
    assert.doesNotMatch(renderHistory(sampleHistory(), 'text'), /Detectable drop/);
    const view = sampleHistory();
    for (const t of view.tests) t.detectableDrop = [null, null, null];
    assert.doesNotMatch(renderHistory(view, 'text'), /Detectable drop/);
  });

  test('json keeps it aligned with the versions, null where not checked', () => {
    const parsed = JSON.parse(renderHistory(checkedHistory(), 'json')) as { tests: Array<{ detectableDrop: Array<number | null> }> };
    assert.deepEqual(parsed.tests.map((t) => t.detectableDrop), [[null, 0.043, 0.12], [null, null, 0.05]]);
  });

  const broken: Array<[string, Array<number | null>, string]> = [
    ['one entry short', [null, 0.05], 'view.tests[0].detectableDrop.length'],
    ['above 1', [null, 1.5, null], 'view.tests[0].detectableDrop[1]'],
    ['NaN', [null, null, Number.NaN], 'view.tests[0].detectableDrop[2]'],
  ];
  for (const [what, drops, path] of broken) {
    test(`a detectable drop ${what} is refused, naming ${path}`, () => {
      const view = checkedHistory();
      view.tests[0]!.detectableDrop = drops;
      assert.throws(() => renderHistory(view, 'text'), (e: unknown) => e instanceof InvalidReportDataError && e.path === path);
    });
  }
});

describe('renderHistory csv', () => {
  test('long format: one record per version and test, absolute then relative, full precision', () => {
    const records = parseCsv(renderHistory(sampleHistory(), 'csv'));
    assert.deepEqual(records[0], [
      'series', 'flavor', 'base_version', 'col', 'version', 'label', 'imported', 'test', 'threads',
      'cpu_o', 'cs_o', 'r_o', 'rkb_o', 'wkb_o', 'qps', 'cpu_o_rel', 'cs_o_rel', 'r_o_rel', 'rkb_o_rel', 'wkb_o_rel', 'qps_rel', 'detectable_drop',
    ]);
    assert.equal(records.length, 1 + 3 * 2);
    assert.deepEqual(records[1], ['10.x', 'mariadb', '10.2.30', 'col-1', '10.2.30', 'ma100230', 'true', 'point-query', '1', '0.0004', '5', '0', '0', '0.002', '10000', '1', '1', '1', '1', '1', '1', '']);
    assert.deepEqual(records[3]?.slice(3), ['col-2', '10.3.39', 'ma100339', 'false', 'point-query', '1', '0.00044', '5.5', '0', '0.1', '0.002', '9100', '1.1', '1.1', '1', 'inf', '1', '0.91', '']);
    assert.deepEqual(records[4]?.slice(7), ['insert', '16', '', '', '', '', '', '', '', '', '', '', '', '', '']);
    assert.deepEqual(records[5]?.slice(-7, -1).map(Number), [0.8, 0.8, 1, 1, 1.5, 1.23]);
  });

  test('the detectable drop of each checked version, full precision; empty where it was not checked', () => {
    const records = parseCsv(renderHistory(checkedHistory(), 'csv'));
    assert.deepEqual(records.slice(1).map((r) => [r[4], r[7], r.at(-1)]), [
      ['10.2.30', 'point-query', ''], ['10.2.30', 'insert', ''],
      ['10.3.39', 'point-query', '0.043'], ['10.3.39', 'insert', ''],
      ['10.11.9', 'point-query', '0.12'], ['10.11.9', 'insert', '0.05'],
    ]);
  });
});

describe('renderHistory json', () => {
  const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 1e6) / 1e6);

  test('the view plus relative figures: 0/0 = 1, x/0 = null, null where not measured', () => {
    const view = sampleHistory();
    type Relative = Record<string, number | null> | null;
    const parsed = JSON.parse(renderHistory(view, 'json')) as Omit<HistoryView, 'tests'> & { tests: (HistoryView['tests'][number] & { relative: Relative[] })[] };
    assert.deepEqual({ ...parsed, tests: parsed.tests.map(({ relative: _, ...rest }) => rest) }, view);
    const [pointQuery, insert] = parsed.tests;
    const rounded = (r: Relative | undefined) => (r ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)])) : r);
    assert.deepEqual(rounded(pointQuery?.relative[1]), { qps: 0.91, cpuPerOp: 1.1, csPerOp: 1.1, readsPerOp: 1, readKBPerOp: null, writeKBPerOp: 1 });
    assert.deepEqual(rounded(pointQuery?.relative[2]), { qps: 1.23, cpuPerOp: 0.8, csPerOp: 0.8, readsPerOp: 1, readKBPerOp: 1, writeKBPerOp: 1.5 });
    assert.equal(insert?.relative[1], null);
    assert.deepEqual(rounded(insert?.relative[2]), { qps: 0.95, cpuPerOp: 1.05, csPerOp: 1.1, readsPerOp: 1, readKBPerOp: 1, writeKBPerOp: 1.25 });
  });
});

describe('renderHistory html', () => {
  test('a whole document with the relative table and the newest version\'s chart', () => {
    const html = renderHistory(sampleHistory(), 'html');
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<title>qpswatch history: mariadb 10\.x<\/title>/);
    assert.match(html, />point-query\.t1<\/td><td align="right"[^>]*>1\.00<\/td><td align="right"[^>]*>0\.91<\/td><td align="right"[^>]*>1\.23<\/td>/);
    // scale is the largest value, 1.23: 1.23 fills 100 %, 0.95 fills 77.2 %, the reference 1 sits at 81.3 %
    assert.match(html, /<p[^>]*>10\.11\.9 \/ 10\.2\.30\* by test<\/p>/);
    assert.match(html, />point-query\.t1<\/td><td width="320"[^>]*><table[^>]*><tr><td width="100\.0%"/);
    assert.match(html, />insert\.t16<\/td><td width="320"[^>]*><table[^>]*><tr><td width="77\.2%"/);
    assert.match(html, />reference<\/td><td[^>]*><table[^>]*><tr><td width="81\.3%"/);
    assert.doesNotMatch(html, /<script|<style|src=|href=/i);
  });

  test('hostile labels and names are escaped', () => {
    const view = sampleHistory();
    view.versions[1]!.label = '<script>alert(1)</script>';
    view.versions[2]!.version = '"><img onerror=x>';
    view.host = 'a & b';
    view.tests[1]!.test = '<b>';
    const html = renderHistory(view, 'html');
    assert.doesNotMatch(html, /<script|<img|<b>/);
    assert.match(html, /col-2: 10\.3\.39 \(&lt;script&gt;alert\(1\)&lt;\/script&gt;\)/);
    assert.match(html, /&quot;&gt;&lt;img onerror=x&gt;/);
    assert.match(html, /host: a &amp; b/);
    assert.match(html, />&lt;b&gt;\.t16<\/td>/);
  });
});

describe('renderHistory refuses a bad view, naming the field', () => {
  const broken: [string, (view: HistoryView) => HistoryView, string][] = [
    ['base index past the versions', (v) => ({ ...v, baseIndex: 3 }), 'view.baseIndex'],
    ['negative base index', (v) => ({ ...v, baseIndex: -1 }), 'view.baseIndex'],
    ['no versions', (v) => ({ ...v, versions: [], tests: [] }), 'view.baseIndex'],
    ['figures not aligned with versions', (v) => ({ ...v, tests: [{ ...v.tests[0]!, figures: v.tests[0]!.figures.slice(1) }] }), 'view.tests[0].figures.length'],
    ['NaN figure', (v) => ({ ...v, tests: [v.tests[0]!, { ...v.tests[1]!, figures: [v.tests[1]!.figures[0]!, null, { ...v.tests[1]!.figures[2]!, csPerOp: Number.NaN }] }] }), 'view.tests[1].figures[2].csPerOp'],
    ['negative figure', (v) => ({ ...v, tests: [{ ...v.tests[0]!, figures: [{ ...v.tests[0]!.figures[0]!, qps: -1 }, null, null] }] }), 'view.tests[0].figures[0].qps'],
    ['infinite figure', (v) => ({ ...v, tests: [{ ...v.tests[0]!, figures: [null, { ...v.tests[0]!.figures[1]!, writeKBPerOp: Infinity }, null] }] }), 'view.tests[0].figures[1].writeKBPerOp'],
    ['zero threads', (v) => ({ ...v, tests: [{ ...v.tests[0]!, threads: 0 }] }), 'view.tests[0].threads'],
  ];
  for (const [what, breakIt, path] of broken) {
    for (const format of REPORT_FORMATS) {
      test(`${what} in ${format}: ${path}`, () => {
        assert.throws(() => renderHistory(breakIt(sampleHistory()), format), (error: unknown) => error instanceof InvalidReportDataError && error.path === path);
      });
    }
  }

  test('an unknown format is the typed error that lists the valid ones', () => {
    assert.throws(() => renderHistory(sampleHistory(), 'pdf' as ReportFormat), UnknownReportFormatError);
  });
});
