import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  InvalidReportDataError,
  renderHistory,
  renderHtmlDocument,
  renderTextDocument,
  REPORT_FORMATS,
  UnknownReportFormatError,
  type ReportFormat,
  type TrendBlock,
} from '../../../src/report/index.js';
import type { HistoryView } from '../../../src/model/index.js';
import { parseCsv } from './csv-parse.js';
import { chainedHistory, checkedHistory, sampleHistory } from './sample-history.js';
import { joined } from '../../helpers/pattern.js';

/** Cells of the text line that starts with `start`, split on runs of spaces. */
function textRow(text: string, start: string): string[] {
  const line = text.split('\n').find((l) => l.trimStart().startsWith(start));
  assert.ok(line !== undefined, `no line starting with ${start}`);
  return line.trim().split(/ {2,}/);
}

describe('renderHistory text', () => {
  const text = renderHistory(sampleHistory(), 'text');

  test("a headline under the title: the newest version's tests against the base, counted by how they stand", () => {
    assert.match(text, /^=+\n\nnewest 10\.11\.9 against the base 10\.2\.30\*: 1 slower, 1 improved$/m);
    const html = renderHistory(sampleHistory(), 'html');
    // Each count a coloured badge, in the tone the table gives its cell: read before the tables.
    assert.match(html, /<span style="[^"]*background-color:#fff1e5[^"]*">1 slower<\/span>/);
    assert.match(html, /<span style="[^"]*background-color:#ddf4ff[^"]*">1 improved<\/span>/);
    assert.ok(html.indexOf('1 slower') < html.indexOf('<table'), 'the headline comes before the tables');
  });

  test('header: series, flavor, base, host and the tag of each version whose tag differs, imported ones marked', () => {
    assert.match(text, /^qpswatch history: mariadb 10\.x\n=+\n/);
    assert.match(text, /^series 10\.x, flavor mariadb, base 10\.2\.30\*$/m);
    assert.match(text, /^host: AMD Ryzen 7 7735HS, 8 cores, SMT off$/m);
    assert.match(text, /^10\.2\.30\*: tag ma100230\n10\.3\.39: tag ma100339\n\* imported$/m);
    assert.doesNotMatch(text, /col-/);
  });

  test(
    'one relative QPS table per level (threads) and test family: a row per version by name, ' +
      'a column per test; medians marked ~, "-" where not measured',
    () => {
      const [, one = '', sixteen = ''] = text.split(/^Relative QPS at /m);
      assert.match(one, /^1 thread: point queries \(version \/ 10\.2\.30\*\)$/m);
      assert.deepEqual(textRow(one, 'version '), ['version', 'point-query']);
      assert.deepEqual(
        ['10.2.30*', '10.3.39', '10.11.9'].map((v) => textRow(one, `${v} `)),
        [
          ['10.2.30*', '1.00~'],
          ['10.3.39', '0.91~'],
          ['10.11.9', '1.23~'],
        ],
      );
      assert.match(sixteen, /^16 threads: writes \(version \/ 10\.2\.30\*\)$/m);
      assert.deepEqual(textRow(sixteen, 'version '), ['version', 'insert']);
      assert.deepEqual(
        ['10.2.30*', '10.3.39', '10.11.9'].map((v) => textRow(sixteen, `${v} `)),
        [
          ['10.2.30*', '1.00~'],
          ['10.3.39', '-'],
          ['10.11.9', '0.95~'],
        ],
      );
      assert.match(text, /^~ median of unpaired runs, no interval$/m);
      assert.doesNotMatch(text, /chained|Drift/);
    },
  );

  test('per-op table per test: absolute figures, the version, then relative; 0/0 = 1 and x/0 = inf', () => {
    const [, pointQuery = '', insert = ''] = text.split(/^Per operation: /m);
    assert.deepEqual(textRow(pointQuery, 'cpu/o'), [
      'cpu/o',
      'cs/o',
      'r/o',
      'rKB/o',
      'wKB/o',
      'o/s',
      'version',
      'rel.cpu/o',
      'rel.cs/o',
      'rel.r/o',
      'rel.rKB/o',
      'rel.wKB/o',
      'rel.o/s',
    ]);
    assert.deepEqual(textRow(pointQuery, '0.0004 '), [
      '0.0004',
      '5',
      '0',
      '0',
      '0.002',
      '10000',
      '10.2.30*',
      '1.00',
      '1.00',
      '1.00',
      '1.00',
      '1.00',
      '1.00',
    ]);
    assert.deepEqual(textRow(pointQuery, '0.00044 '), [
      '0.00044',
      '5.5',
      '0',
      '0.1',
      '0.002',
      '9100',
      '10.3.39',
      '1.10',
      '1.10',
      '1.00',
      'inf',
      '1.00',
      '0.91',
    ]);
    assert.deepEqual(textRow(pointQuery, '0.00032 '), [
      '0.00032',
      '4',
      '0',
      '0',
      '0.003',
      '12300',
      '10.11.9',
      '0.80',
      '0.80',
      '1.00',
      '1.00',
      '1.50',
      '1.23',
    ]);
    assert.deepEqual(textRow(insert, '- '), ['-', '-', '-', '-', '-', '-', '10.3.39', '-', '-', '-', '-', '-', '-']);
    assert.deepEqual(textRow(insert, '0.0021 '), [
      '0.0021',
      '11',
      '0.5',
      '8',
      '25',
      '1900',
      '10.11.9',
      '1.05',
      '1.10',
      '1.00',
      '1.00',
      '1.25',
      '0.95',
    ]);
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
    assert.deepEqual(
      ['10.2.30*', '10.3.39', '10.11.9'].map((v) => textRow(text, `${v} `)[1]),
      ['1.00~', '1.00~', 'inf~'],
    );
  });
});

describe('renderHistory with memory settings', () => {
  // The point-query row again under io-bound, at a tenth of the QPS and with reads: a table of its own.
  const view = (): HistoryView => {
    const base = sampleHistory();
    const point = base.tests[0]!;
    const ioBound = {
      ...point,
      memory: 'io-bound' as const,
      figures: point.figures.map((f) => (f === null ? null : { ...f, qps: f.qps / 10, readsPerOp: 0.9 })),
    };
    return { ...base, tests: [ioBound, ...base.tests] };
  };

  test(
    'one relative QPS table per level and memory setting: none first, then ' +
      'cached and io-bound, fewest threads first',
    () => {
      const text = renderHistory(view(), 'text');
      const headings = [...text.matchAll(/^Relative QPS at (.*) \(version/gm)].map((m) => m[1]);
      assert.deepEqual(headings, [
        '1 thread: point queries',
        '16 threads: writes',
        '1 thread, io-bound: point queries',
      ]);
      const [, , , ioBound = ''] = text.split(/^Relative QPS at /m);
      assert.deepEqual(textRow(ioBound, 'version '), ['version', 'point-query']);
      assert.match(text, /^Per operation: point-query\.t1\.io-bound$/m);
    },
  );

  test('csv gives the memory column, json the memory field, only where set', () => {
    const records = parseCsv(renderHistory(view(), 'csv'));
    assert.deepEqual(
      records.slice(1, 4).map((r) => [r[6], r[7], r[records[0]!.indexOf('memory')]]),
      [
        ['point-query', '1', 'io-bound'],
        ['point-query', '1', ''],
        ['insert', '16', ''],
      ],
    );
    const json = JSON.parse(renderHistory(view(), 'json')) as { tests: Array<{ memory?: string }> };
    assert.deepEqual(
      json.tests.map((t) => t.memory ?? null),
      ['io-bound', null, null],
    );
  });

  test('a memory setting that is not one is refused, naming the field', () => {
    const bad = view();
    assert.throws(
      () =>
        renderHistory(
          { ...bad, tests: [{ ...bad.tests[0]!, memory: 'swap' as never }, ...bad.tests.slice(1)] },
          'text',
        ),
      /tests\[0\]\.memory.*expected cached or io-bound/,
    );
  });
});

describe('renderHistory in every format', () => {
  for (const format of REPORT_FORMATS) {
    test(`${format}: no col-N legend, the versions by their names`, () => {
      const out = renderHistory(chainedHistory(), format);
      assert.doesNotMatch(out, /col-?\d|\bcol\b/);
      assert.match(out, /1\.0\.4/);
    });
  }
});

describe('renderHistory md', () => {
  test('tables in GFM, data escaped, every row at its column count', () => {
    const view = sampleHistory();
    view.tests[0]!.test = 'read|hot_*x*';
    view.versions[2]!.label = '[link](x)';
    const md = renderHistory(view, 'md');
    assert.match(md, /^\| version +\| read\\\|hot\\_\\\*x\\\* \|$/m);
    assert.match(md, /^\| 10\.3\.39 +\| +0\.91\\~ \|$/m);
    assert.match(md, /^- 10\.11\.9: tag \\\[link\\\]\(x\)$/m);
    assert.match(md, /^- \\\* imported$/m);
    assert.match(md, /^\|  0\.0004 \|    5 \|   0 \|     0 \| 0\.002 \| 10000 \| 10\.2\.30\\\* \|/m);
    for (const table of md.split('\n\n').filter((block) => block.startsWith('|'))) {
      const counts = table
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length);
      assert.equal(new Set(counts).size, 1, table);
    }
  });
});

describe('renderHistory detectable drop', () => {
  test(
    "a table per version: the newest valid check's detectable drop, whole " +
      'percents rounded up, "-" where not checked',
    () => {
      const text = renderHistory(checkedHistory(), 'text');
      assert.match(text, /^Detectable drop \(the newest valid check of each version\)$/m);
      const section = text.slice(text.indexOf('Detectable drop'));
      const row = (start: string): string[] => textRow(section, start);
      assert.deepEqual(row('test '), ['test', '10.2.30*', '10.3.39', '10.11.9']);
      assert.deepEqual(row('point-query.t1 '), ['point-query.t1', '-', '5%', '12%']);
      assert.deepEqual(row('insert.t16 '), ['insert.t16', '-', '-', '5%']);
    },
  );

  test('md and html carry the same table', () => {
    assert.match(renderHistory(checkedHistory(), 'md'), /^\| point-query\.t1 +\| +- \| +5% \| +12% \|$/m);
    assert.match(
      renderHistory(checkedHistory(), 'html'),
      joined(
        />point-query\.t1<\/td><td align="right"[^>]*>-<\/td><td /,
        /align="right"[^>]*>5%<\/td><td align="right"[^>]*>12%<\/td>/,
      ),
    );
  });

  test('a history without any checked version has no such table', () => {
    assert.doesNotMatch(renderHistory(sampleHistory(), 'text'), /Detectable drop/);
    const view = sampleHistory();
    for (const t of view.tests) t.detectableDrop = [null, null, null];
    assert.doesNotMatch(renderHistory(view, 'text'), /Detectable drop/);
  });

  test('json keeps it aligned with the versions, null where not checked', () => {
    const parsed = JSON.parse(renderHistory(checkedHistory(), 'json')) as {
      tests: Array<{ detectableDrop: Array<number | null> }>;
    };
    assert.deepEqual(
      parsed.tests.map((t) => t.detectableDrop),
      [
        [null, 0.043, 0.12],
        [null, null, 0.05],
      ],
    );
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
      assert.throws(
        () => renderHistory(view, 'text'),
        (e: unknown) => e instanceof InvalidReportDataError && e.path === path,
      );
    });
  }
});

describe('renderHistory csv', () => {
  test('long format: one record per version and test, absolute then relative, full precision', () => {
    const records = parseCsv(renderHistory(sampleHistory(), 'csv'));
    assert.deepEqual(records[0], [
      'series',
      'flavor',
      'base_version',
      'version',
      'label',
      'imported',
      'test',
      'threads',
      'cpu_o',
      'cs_o',
      'r_o',
      'rkb_o',
      'wkb_o',
      'qps',
      'cpu_o_rel',
      'cs_o_rel',
      'r_o_rel',
      'rkb_o_rel',
      'wkb_o_rel',
      'qps_rel',
      'detectable_drop',
      'relative_qps',
      'relative_qps_low',
      'relative_qps_high',
      'source',
      'step',
      'memory',
      'instructions_per_query',
      'instructions_spread',
      'instructions_repeats',
      'instructions_rel',
      'instructions_rel_low',
      'instructions_rel_high',
      'instructions_verdict',
    ]);
    assert.equal(records.length, 1 + 3 * 2);
    // No instructions lane in this history: its seven columns are empty on every record.
    for (const record of records.slice(1)) assert.deepEqual(record.slice(-7), new Array<string>(7).fill(''));
    const qpsPart = (record: string[] | undefined) => record?.slice(0, -7);
    assert.deepEqual(qpsPart(records[1]), [
      '10.x',
      'mariadb',
      '10.2.30',
      '10.2.30',
      'ma100230',
      'true',
      'point-query',
      '1',
      '0.0004',
      '5',
      '0',
      '0',
      '0.002',
      '10000',
      '1',
      '1',
      '1',
      '1',
      '1',
      '1',
      '',
      '1',
      '',
      '',
      'median',
      '',
      '',
    ]);
    assert.deepEqual(qpsPart(records[3])?.slice(3), [
      '10.3.39',
      'ma100339',
      'false',
      'point-query',
      '1',
      '0.00044',
      '5.5',
      '0',
      '0.1',
      '0.002',
      '9100',
      '1.1',
      '1.1',
      '1',
      'inf',
      '1',
      '0.91',
      '',
      '0.91',
      '',
      '',
      'median',
      '',
      '',
    ]);
    assert.deepEqual(qpsPart(records[4])?.slice(6), [
      'insert',
      '16',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ]);
    assert.deepEqual(records[5]?.slice(-20, -14).map(Number), [0.8, 0.8, 1, 1, 1.5, 1.23]);
  });

  test('the detectable drop of each checked version, full precision; empty where it was not checked', () => {
    const records = parseCsv(renderHistory(checkedHistory(), 'csv'));
    assert.deepEqual(
      records.slice(1).map((r) => [r[3], r[6], r[records[0]!.indexOf('detectable_drop')]]),
      [
        ['10.2.30', 'point-query', ''],
        ['10.2.30', 'insert', ''],
        ['10.3.39', 'point-query', '0.043'],
        ['10.3.39', 'insert', ''],
        ['10.11.9', 'point-query', '0.12'],
        ['10.11.9', 'insert', '0.05'],
      ],
    );
  });
});

describe('renderHistory json', () => {
  const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 1e6) / 1e6);

  test('the view plus relative figures: 0/0 = 1, x/0 = null, null where not measured', () => {
    const view = sampleHistory();
    type Relative = Record<string, number | null> | null;
    const parsed = JSON.parse(renderHistory(view, 'json')) as Omit<HistoryView, 'tests'> & {
      tests: (HistoryView['tests'][number] & { relative: Relative[]; relativeQps: unknown[] })[];
    };
    assert.deepEqual({ ...parsed, tests: parsed.tests.map(({ relative: _, relativeQps: __, ...rest }) => rest) }, view);
    const [pointQuery, insert] = parsed.tests;
    const rounded = (r: Relative | undefined) =>
      r ? Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)])) : r;
    assert.deepEqual(rounded(pointQuery?.relative[1]), {
      qps: 0.91,
      cpuPerOp: 1.1,
      csPerOp: 1.1,
      readsPerOp: 1,
      readKBPerOp: null,
      writeKBPerOp: 1,
    });
    assert.deepEqual(rounded(pointQuery?.relative[2]), {
      qps: 1.23,
      cpuPerOp: 0.8,
      csPerOp: 0.8,
      readsPerOp: 1,
      readKBPerOp: 1,
      writeKBPerOp: 1.5,
    });
    assert.equal(insert?.relative[1], null);
    assert.deepEqual(rounded(insert?.relative[2]), {
      qps: 0.95,
      cpuPerOp: 1.05,
      csPerOp: 1.1,
      readsPerOp: 1,
      readKBPerOp: 1,
      writeKBPerOp: 1.25,
    });
  });
});

describe('renderHistory html', () => {
  test("a whole document with a relative table and the newest version's chart per test family", () => {
    const html = renderHistory(sampleHistory(), 'html');
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<title>qpswatch history: mariadb 10\.x<\/title>/);
    assert.match(html, /<h2[^>]*>Relative QPS at 1 thread: point queries \(version \/ 10\.2\.30\*\)<\/h2>/);
    assert.match(html, /<h2[^>]*>Relative QPS at 16 threads: writes \(version \/ 10\.2\.30\*\)<\/h2>/);
    assert.match(html, /<th[^>]*>version<\/th><th[^>]*>point-query<\/th><\/tr>/);
    // Each cell in its ratio's colour: 0.91 under the default threshold 0.95 reads as a regression.
    assert.match(html, />10\.3\.39<\/td><td align="right"[^>]*background-color:#ffebe9[^>]*>0\.91~<\/td><\/tr>/);
    assert.match(html, /<p[^>]*>10\.11\.9 \/ 10\.2\.30\* by test: point queries<\/p>/);
    assert.match(html, /<p[^>]*>10\.11\.9 \/ 10\.2\.30\* by test: writes<\/p>/);
    // Each family's chart has its own scale: the largest value fills the 380 px plot; 1 is a dashed line, not a row.
    assert.match(
      html,
      /<title>point-query\.t1: 1\.23<\/title><text[^>]*>point-query\.t1<\/text><rect[^>]*width="380\.0"/,
    );
    assert.match(html, /<line x1="508\.9"[^>]*stroke-dasharray="4 3"\/><text[^>]*>1\.00<\/text>/);
    assert.doesNotMatch(html, />reference</);
    // A history's bar is coloured by its ratio, but no verdict's word: no test decided it.
    assert.match(html, /<text[^>]*fill="#0969da">1\.23<\/text>/);
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
    assert.match(html, /10\.3\.39: tag &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&quot;&gt;&lt;img onerror=x&gt;/);
    assert.match(html, /host: a &amp; b/);
    assert.match(html, /<text[^>]*>&lt;b&gt;\.t16<\/text>/);
    assert.match(html, /<th[^>]*>&lt;b&gt;<\/th>/);
  });
});

describe('renderHistory refuses a bad view, naming the field', () => {
  const broken: [string, (view: HistoryView) => HistoryView, string][] = [
    ['base index past the versions', (v) => ({ ...v, baseIndex: 3 }), 'view.baseIndex'],
    ['negative base index', (v) => ({ ...v, baseIndex: -1 }), 'view.baseIndex'],
    ['no versions', (v) => ({ ...v, versions: [], tests: [] }), 'view.baseIndex'],
    [
      'figures not aligned with versions',
      (v) => ({ ...v, tests: [{ ...v.tests[0]!, figures: v.tests[0]!.figures.slice(1) }] }),
      'view.tests[0].figures.length',
    ],
    [
      'NaN figure',
      (v) => ({
        ...v,
        tests: [
          v.tests[0]!,
          {
            ...v.tests[1]!,
            figures: [v.tests[1]!.figures[0]!, null, { ...v.tests[1]!.figures[2]!, csPerOp: Number.NaN }],
          },
        ],
      }),
      'view.tests[1].figures[2].csPerOp',
    ],
    [
      'negative figure',
      (v) => ({ ...v, tests: [{ ...v.tests[0]!, figures: [{ ...v.tests[0]!.figures[0]!, qps: -1 }, null, null] }] }),
      'view.tests[0].figures[0].qps',
    ],
    [
      'infinite figure',
      (v) => ({
        ...v,
        tests: [{ ...v.tests[0]!, figures: [null, { ...v.tests[0]!.figures[1]!, writeKBPerOp: Infinity }, null] }],
      }),
      'view.tests[0].figures[1].writeKBPerOp',
    ],
    ['zero threads', (v) => ({ ...v, tests: [{ ...v.tests[0]!, threads: 0 }] }), 'view.tests[0].threads'],
  ];
  for (const [what, breakIt, path] of broken) {
    for (const format of REPORT_FORMATS) {
      test(`${what} in ${format}: ${path}`, () => {
        assert.throws(
          () => renderHistory(breakIt(sampleHistory()), format),
          (error: unknown) => error instanceof InvalidReportDataError && error.path === path,
        );
      });
    }
  }

  test('an unknown format is the typed error that lists the valid ones', () => {
    assert.throws(() => renderHistory(sampleHistory(), 'pdf' as ReportFormat), UnknownReportFormatError);
  });
});

describe('renderHistory chained against the base', () => {
  const text = renderHistory(chainedHistory(), 'text');

  test('text: chained cells with their interval, a median marked ~, the step marked where it began', () => {
    const [, points = '', writes = ''] = text.split(/^Relative QPS at /m);
    const versions = ['1.0.0', '1.0.1', '1.0.2*', '1.0.3', '1.0.4', '1.0.5'];
    assert.deepEqual(textRow(points, 'version '), ['version', 'point-query']);
    assert.deepEqual(
      versions.map((v) => textRow(points, `${v} `)[1]),
      ['1.00', '1.00~', '1.00~', '1.00 (0.98-1.02)', '\u25bc0.90 (0.88-0.93)', '0.90 (0.87-0.93)'],
    );
    assert.deepEqual(textRow(writes, 'version '), ['version', 'insert']);
    assert.deepEqual(
      versions.map((v) => textRow(writes, `${v} `)[1]),
      ['1.00', '0.97 (0.95-0.99)', '0.95~', '0.94 (0.92-0.97)', '0.91 (0.88-0.94)', '0.89 (0.85-0.92)'],
    );
    assert.match(
      text,
      joined(
        /^chained through the paired checks to the base, 95% interval /,
        /in parentheses\n\u25bc \u25b2 a step down or up began at /,
        /this version\n~ median of unpaired runs, no interval$/m,
      ),
    );
  });

  test('text: a chained estimate under the threshold says drift suspected, with the command that confirms it', () => {
    assert.match(
      text,
      joined(
        /^insert\.t1: drift suspected at 1\.0\.5 \(chained 0\.885 of /,
        /base, interval 0\.851-0\.921\); confirm with `qpswatch check /,
        /v1\.0\.5 --against-base`$/m,
      ),
    );
  });

  test(
    'text: a newest estimate from one session against the base is measured, ' +
      'not suspected; over the threshold says nothing',
    () => {
      const view = chainedHistory();
      const [insert, point] = view.tests;
      const direct = { relativeQps: 0.9, low: 0.88, high: 0.92, steps: 1, step: null };
      const fine = { relativeQps: 0.99, low: 0.96, high: 1.02, steps: 4, step: null };
      view.tests = [
        { ...insert!, chained: [...insert!.chained!.slice(0, 5), direct] },
        { ...point!, chained: [...point!.chained!.slice(0, 5), fine] },
      ];
      const out = renderHistory(view, 'text');
      assert.match(
        out,
        joined(
          /^insert\.t1: under the threshold 0\.95 at 1\.0\.5, measured /,
          /against the base \(0\.900 of base, interval 0\.880-0\.920\)$/m,
        ),
      );
      assert.doesNotMatch(out, /point-query\.t1: (drift|under)/);
    },
  );

  test('csv: relative_qps with low, high, source chained or median, and the step', () => {
    const records = parseCsv(renderHistory(chainedHistory(), 'csv'));
    const header = records[0]!;
    const at = (version: string, test: string): Record<string, string> => {
      const record = records.find((r) => r[3] === version && r[6] === test)!;
      return Object.fromEntries(header.map((h, i) => [h, record[i]!]));
    };
    const fifth = at('1.0.5', 'insert');
    assert.equal(Number(fifth.relative_qps).toFixed(3), '0.885');
    assert.equal(fifth.source, 'chained');
    assert.ok(Number(fifth.relative_qps_low) < 0.885 && Number(fifth.relative_qps_high) > 0.885);
    assert.deepEqual(
      [at('1.0.2', 'insert').source, at('1.0.2', 'insert').relative_qps_low, at('1.0.2', 'insert').relative_qps],
      ['median', '', '0.95'],
    );
    assert.equal(at('1.0.4', 'point-query').step, 'down');
  });

  test('json: relativeQps per version with low, high, source and step', () => {
    type Cell = {
      value: number;
      low: number | null;
      high: number | null;
      source: string;
      steps: number | null;
      step: { direction: string } | null;
    } | null;
    const parsed = JSON.parse(renderHistory(chainedHistory(), 'json')) as {
      confidence: number;
      tests: Array<{ threshold: number; relativeQps: Cell[] }>;
    };
    const insert = parsed.tests[0]!;
    assert.equal(parsed.confidence, 0.95);
    assert.equal(insert.threshold, 0.95);
    assert.equal(insert.relativeQps[5]?.source, 'chained');
    assert.equal(insert.relativeQps[5]?.steps, 4);
    assert.equal(insert.relativeQps[5]?.value.toFixed(3), '0.885');
    assert.deepEqual(insert.relativeQps[2], {
      value: 0.95,
      low: null,
      high: null,
      source: 'median',
      steps: null,
      step: null,
    });
    assert.equal(parsed.tests[1]!.relativeQps[4]?.step?.direction, 'down');
  });

  test('md: the same cells, the marks escaped where markdown would read them', () => {
    const md = renderHistory(chainedHistory(), 'md');
    assert.match(md, /^\| 1\.0\.1 +\| +1\.00\\~ \|$/m);
    assert.match(md, /^\| 1\.0\.1 +\| 0\.97 \(0\.95-0\.99\) \|$/m);
    assert.match(md, /^\| 1\.0\.2\\\* +\| +0\.95\\~ \|$/m);
    assert.match(md, /^- insert\.t1: drift suspected at 1\.0\.5 /m);
  });

  test(
    'html: tests as the column headings, a row per version, an <svg> per ' +
      'test with its band, threshold and step marker',
    () => {
      const html = renderHistory(chainedHistory(), 'html');
      assert.match(html, /<th[^>]*>version<\/th><th[^>]*>point-query<\/th><\/tr>/);
      assert.match(html, /<th[^>]*>version<\/th><th[^>]*>insert<\/th><\/tr>/);
      assert.match(html, />1\.0\.2\*<\/td><td align="right"[^>]*>0\.95~<\/td>/);
      // The trends, one per test, by family: point queries first, then writes (the bar charts have no band).
      const svgs = (html.match(/<svg[\s\S]*?<\/svg>/g) ?? []).filter((svg) => svg.includes('class="band"'));
      assert.equal(svgs.length, 2);
      for (const svg of svgs) {
        assert.match(svg, /<path class="band" d="M[\d.]+,[\d.]+ L/);
        assert.match(svg, /threshold 0\.95/);
        assert.match(svg, /<polyline points=/);
      }
      assert.doesNotMatch(svgs[1]!, /class="step"/);
      assert.match(
        svgs[0]!,
        /<path class="step"[^>]*><title>\u25bc 1\.0\.4: 0\.90, interval 0\.88-0\.93, a step down began here<\/title>/,
      );
      // The imported median is a hollow point with no interval.
      assert.match(
        svgs[1]!,
        /fill="#ffffff"[^>]*><title>1\.0\.2\*: 0\.95, median of unpaired runs, no interval<\/title>/,
      );
      assert.doesNotMatch(html, /<script|<style|src=|href=/i);
    },
  );

  test('html: hostile tags and test names are escaped in the tables, the drift line and the charts', () => {
    const view = chainedHistory();
    view.versions[5]!.label = '<img src=x onerror=alert(1)>';
    view.versions[4]!.version = '1.0.4<b>';
    view.tests[0]!.test = '<svg onload=x>';
    const html = renderHistory(view, 'html');
    assert.doesNotMatch(html, /<img|<b>|<svg onload/);
    assert.match(html, /check &lt;img src=x onerror=alert\(1\)&gt; --against-base/);
    assert.match(html, /<text[^>]*>1\.0\.4&lt;b&gt;<\/text>/);
    assert.match(html, /<title>&lt;svg onload=x&gt;\.t1: version \/ 1\.0\.0<\/title>/);
  });

  const broken: Array<[string, (view: HistoryView) => void, string]> = [
    [
      'one entry short',
      (v) => void (v.tests[0]!.chained = v.tests[0]!.chained!.slice(1)),
      'view.tests[0].chained.length',
    ],
    [
      'a low over the estimate',
      (v) => void (v.tests[0]!.chained = v.tests[0]!.chained!.map((c, i) => (i === 1 && c ? { ...c, low: 2 } : c))),
      'view.tests[0].chained[1].low',
    ],
    [
      'a NaN estimate',
      (v) =>
        void (v.tests[1]!.chained = v.tests[1]!.chained!.map((c, i) =>
          i === 3 && c ? { ...c, relativeQps: Number.NaN } : c,
        )),
      'view.tests[1].chained[3].relativeQps',
    ],
    ['a threshold of 2', (v) => void (v.tests[0]!.threshold = 2), 'view.tests[0].threshold'],
  ];
  for (const [what, breakIt, path] of broken) {
    test(`a chained history with ${what} is refused, naming ${path}`, () => {
      const view = chainedHistory();
      breakIt(view);
      assert.throws(
        () => renderHistory(view, 'json'),
        (e: unknown) => e instanceof InvalidReportDataError && e.path === path,
      );
    });
  }
});

describe('trend blocks', () => {
  const trend: TrendBlock = {
    kind: 'trend',
    title: 'insert.t1: version / 1.0.0',
    threshold: 0.95,
    points: [
      { label: '1.0.0', value: 1, low: 1, high: 1, step: null },
      { label: '1.0.1*', value: 0.97, low: null, high: null, step: null },
      { label: '1.0.2', value: 0.9, low: 0.87, high: 0.93, step: 'down' },
      { label: '1.0.3', value: null, low: null, high: null, step: null },
    ],
  };

  test('text lists each version with its value, interval and step, under the title and threshold', () => {
    assert.deepEqual(renderTextDocument([trend]).trimEnd().split('\n'), [
      'insert.t1: version / 1.0.0 (threshold 0.95)',
      '1.0.0: 1.00 (1.00-1.00)',
      '1.0.1*: 0.97',
      '1.0.2: 0.90 (0.87-0.93) \u25bc',
      '1.0.3: -',
    ]);
  });

  test(
    'html: a point with an interval but no chained neighbour gets a ' +
      'whisker, not a band; unmeasured ones no marker',
    () => {
      const html = renderHtmlDocument('t', [trend]);
      assert.doesNotMatch(html, /class="band"/);
      assert.equal(html.match(/stroke-width="6"/g)?.length, 2);
      assert.equal(html.match(/<circle /g)?.length, 3);
      assert.match(html, /<path class="step"/);
    },
  );
});
