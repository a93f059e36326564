import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  hintText,
  escapeHtml,
  escapeMarkdown,
  InvalidReportDataError,
  parseReportFormat,
  renderComparison,
  REPORT_FORMATS,
  TONE_COLORS,
  UnknownReportFormatError,
} from '../../../src/report/index.js';
import type { ComparisonView, RowVerdict } from '../../../src/model/index.js';
import { fixturePath } from '../../helpers/paths.js';
import { parseCsv } from './csv-parse.js';
import { rowVerdict, sampleView } from './sample-view.js';
import { joined } from '../../helpers/pattern.js';

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

  test('a suite with levels: the header names each level, the threads it came to and its load', () => {
    const view: ComparisonView = {
      ...sampleView(),
      levels: [
        { threads: 1, threadsSpec: 1, tables: 1, tableSize: 2000 },
        { threads: 8, threadsSpec: '4*cores', tables: 4, tableSize: 10000 },
      ],
    };
    assert.match(renderComparison(view, 'text'), /^levels: t1 on 1 x 2000 rows; t8 \(4\*cores\) on 4 x 10000 rows$/m);
    assert.deepEqual((JSON.parse(renderComparison(view, 'json')) as ComparisonView).levels, view.levels);
    assert.doesNotMatch(renderComparison(sampleView(), 'text'), /^levels:/m);
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
      const counts = table
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length);
      assert.equal(new Set(counts).size, 1, table);
    }
    assert.match(md, /^\| read, "hot" rows\\\|x\.t1 \| 12345 \|/m);
  });
});

describe('renderComparison csv', () => {
  test('one record per test and side under the documented header', () => {
    const records = parseCsv(renderComparison(sampleView(), 'csv'));
    assert.deepEqual(records[0], [
      'suite',
      'test',
      'threads',
      'role',
      'target',
      'flavor',
      'version',
      'qps',
      'relative_qps',
      'cpu_o',
      'cs_o',
      'r_o',
      'rkb_o',
      'wkb_o',
      'cpu_us_o',
      'verdict',
      'low',
      'high',
      'confidence',
      'detectable_drop',
      'pairs',
      'noise',
      'memory',
      'hit_ratio',
      'instructions_per_query',
      'instructions_spread',
      'instructions_relative',
      'instructions_low',
      'instructions_high',
      'instructions_verdict',
      'instructions_threshold',
      'function',
      'object',
      'inclusive_per_query',
      'exclusive_per_query',
      'inclusive_growth',
      'exclusive_growth',
    ]);
    assert.equal(records.length, 1 + 2 * 2);
    assert.deepEqual(records[1], [
      'small-server',
      'point-query',
      '1',
      'baseline',
      'mariadb-10.11.9',
      'mariadb',
      '10.11.9',
      '12345.4',
      '1',
      '0.000312',
      '5.1',
      '0',
      '0',
      '0.00312',
      '24.96',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      // No instructions lane in this session: its columns are empty.
      ...new Array<string>(13).fill(''),
    ]);
    assert.deepEqual(records[2]?.slice(3, 9), [
      'candidate',
      'mariadb-10.11.10',
      'mariadb',
      '10.11.10',
      '11800.2',
      String(11800.2 / 12345.4),
    ]);
  });

  test('names with commas, quotes and newlines read back unchanged', () => {
    const records = parseCsv(renderComparison(awkwardView(), 'csv'));
    assert.equal(records.length, 5);
    for (const record of records.slice(1)) assert.equal(record.length, 37);
    assert.deepEqual(records[1]?.slice(0, 2), ['suite, "quoted"', AWKWARD_TEST]);
    assert.deepEqual(records[2]?.slice(0, 2), ['suite, "quoted"', AWKWARD_TEST]);
  });
});

describe('memory settings', () => {
  const underMemory = (): ComparisonView => {
    const view = sampleView();
    view.memory = 'io-bound';
    view.tests[0]!.baseline.hitRatio = 0.42;
    view.tests[0]!.candidate.hitRatio = 0.4;
    return view;
  };

  test(
    'every heading of a session under a memory setting names it, and each ' + 'test gives its buffer pool hit ratio',
    () => {
      const text = renderComparison(underMemory(), 'text');
      assert.match(text, /^session \d+, suite small-server, .*, memory io-bound, /m);
      assert.match(text, /Relative QPS \(C\/B\), memory io-bound/);
      assert.match(text, /Per operation: point-query.t1, memory io-bound/);
      assert.match(text, /^buffer pool hit ratio: B 42\.00%, C 40\.00%$/m);
      assert.match(text, /qpswatch comparison: .* \(io-bound\)/);
    },
  );

  test('csv and json carry the memory setting and the hit ratio', () => {
    const records = parseCsv(renderComparison(underMemory(), 'csv'));
    const memoryAt = records[0]!.indexOf('memory');
    assert.deepEqual(records[1]?.slice(memoryAt, memoryAt + 2), ['io-bound', '0.42']);
    assert.deepEqual(records[3]?.slice(memoryAt, memoryAt + 2), ['io-bound', '']);
    const json = JSON.parse(renderComparison(underMemory(), 'json')) as ComparisonView;
    assert.equal(json.memory, 'io-bound');
    assert.equal(json.tests[0]!.candidate.hitRatio, 0.4);
  });

  test('a hit ratio outside 0..1 is refused before anything is rendered', () => {
    const view = underMemory();
    view.tests[0]!.baseline.hitRatio = 1.5;
    assert.throws(() => renderComparison(view, 'text'), /hitRatio/);
  });
});

describe('verdicts', () => {
  const judged = (): ComparisonView => {
    const view = sampleView();
    view.design = 'paired';
    const [first, second] = view.tests;
    first!.verdict = rowVerdict('regression', {
      pSlower: 0.0143,
      pFaster: 1,
      low: 0.93,
      high: 0.98,
      detectableDrop: 0.031,
      pairs: 10,
      hint: [
        { metric: 'wKB/o', baseline: 0.5, candidate: 15, ratio: 30 },
        { metric: 'r/o', baseline: 0, candidate: 0.1, ratio: null },
      ],
    });
    second!.verdict = rowVerdict('unstable', {
      pSlower: 0.4,
      pFaster: 0.6,
      low: 0.88,
      high: 1.21,
      detectableDrop: 0.12,
      pairs: 8,
    });
    return view;
  };

  test('text shows the interval, detectable drop, pairs and verdict columns', () => {
    const text = renderComparison(judged(), 'text');
    assert.match(
      text,
      joined(
        /^test +B\.qps +C\.qps +C\/B +95% /,
        /interval +detect +pairs +B\.min-max +C\.min-max +B\.spread +C\.spread +verdict$/m,
      ),
    );
    assert.match(text, /^point-query\.t1 +12345 +11800 +0\.96 +0\.93-0\.98 +4% +10 +12210-12480 .* regression$/m);
    assert.match(text, /^update-index\.t1 +2510 +2611 +1\.04 +0\.88-1\.21 +12% +8 +.* unstable$/m);
  });

  test('the header names the paired design and its most pairs; a whole-run session its rounds', () => {
    assert.match(
      renderComparison(judged(), 'text'),
      /^session 42, suite small-server, paired design, 3 pairs at most per test, 2024-05-01T10:00:00Z/m,
    );
    const runs = judged();
    runs.design = 'runs';
    const text = renderComparison(runs, 'text');
    assert.match(text, /^session 42, suite small-server, 3 rounds, 2024/m);
    assert.match(text, /^test +B\.qps +C\.qps +C\/B +95% interval +detect +rounds +B\.min-max/m);
    assert.match(
      text,
      /^update-index\.t1: unstable, .*\(8 rounds\); more rounds, or the paired design, would narrow it$/m,
    );
  });

  // One line per judged test, whatever its verdict: [what, verdict, relative QPS, the line].
  const lines: [string, RowVerdict, number, RegExp][] = [
    [
      'ok states the bound its interval gives',
      rowVerdict('ok', { low: 0.9612, high: 1.03, pairs: 12 }),
      1.0,
      /^update-index\.t1: ok, no drop larger than 4% \(95% interval 0\.96-1\.03, 12 pairs\)$/m,
    ],
    [
      'ok above 1 rules out any drop',
      rowVerdict('ok', { low: 1.02, high: 1.09, pairs: 6 }),
      1.05,
      /^update-index\.t1: ok, no drop \(95% interval 1\.02-1\.09, 6 pairs\)$/m,
    ],
    [
      'ok rounds the bound up, never down',
      rowVerdict('ok', { low: 0.951, high: 1.01, pairs: 20, confidence: 0.9 }),
      0.98,
      /^update-index\.t1: ok, no drop larger than 5% \(90% interval 0\.95-1\.01, 20 pairs\)$/m,
    ],
    [
      'unstable gives interval, margin, bound, detectable drop and what would help',
      rowVerdict('unstable', { low: 0.88, high: 1.06, detectableDrop: 0.12, pairs: 8 }),
      0.97,
      joined(
        /^update-index\.t1: unstable, C\/B 0\.97, 95% interval /,
        /0\.88-1\.06: cannot rule out a drop larger than the 5% /,
        /margin \(it rules out only drops larger than 12%\); it could /,
        /detect drops of 12% or more \(8 pairs\); calibrate the host /,
        /\(qpswatch calibrate\) or give it a larger budget /,
        /\(budget_minutes, max_pairs\)$/m,
      ),
    ],
    [
      'unstable under the threshold gives the p-value it could not call significant',
      rowVerdict('unstable', { pSlower: 0.04, low: 0.7, high: 0.95, detectableDrop: 0.2, pairs: 4 }),
      0.8,
      joined(
        /^update-index\.t1: unstable, C\/B 0\.80 < 0\.95 \(p=0\.04, /,
        /not significant\), 95% interval 0\.70-0\.95: cannot rule out /,
        /a drop larger than the 5% margin \(it rules out only drops /,
        /larger than 30%\); it could detect drops of 20% or more \(4 /,
        /pairs\)/m,
      ),
    ],
    [
      'unstable after a single pair: no upper end, no drop ruled out',
      rowVerdict('unstable', { low: 0, high: null, detectableDrop: 1, pairs: 1, noise: null }),
      0.99,
      joined(
        /^update-index\.t1: unstable, C\/B 0\.99, 95% interval /,
        /0\.00-inf: cannot rule out a drop larger than the 5% margin /,
        /\(it rules out no drop\); it could detect no drop \(1 pair: /,
        /too few for alpha\)/m,
      ),
    ],
    [
      'regression keeps its matchable head and adds interval and pairs after the hint',
      rowVerdict('regression', {
        threshold: 0.6,
        pSlower: 0.00012,
        low: 0.2,
        high: 0.27,
        pairs: 5,
        hint: [{ metric: 'wKB/o', baseline: 1, candidate: 3.1, ratio: 3.1 }],
      }),
      0.2333,
      joined(
        /^update-index\.t1: regression, C\/B 0\.23 < 0\.60, /,
        /p=0\.00012; grew: wKB\/o x3\.10; 95% interval 0\.20-0\.27, 5 /,
        /pairs$/m,
      ),
    ],
    [
      'regression without a per-op figure that grew',
      rowVerdict('regression', { pSlower: 0.001, low: 0.8, high: 0.9, pairs: 9 }),
      0.85,
      joined(
        /^update-index\.t1: regression, C\/B 0\.85 < 0\.95, p=0\.001; /,
        /grew: no per-op figure \(the host did the same work per /,
        /operation, slower\); 95% interval 0\.80-0\.90, 9 pairs$/m,
      ),
    ],
    [
      'improvement',
      rowVerdict('improvement', { pFaster: 0.002, low: 1.1, high: 1.3, pairs: 7 }),
      1.2,
      /^update-index\.t1: improvement, C\/B 1\.20 > 1\.05, p=0\.002; 95% interval 1\.10-1\.30, 7 pairs$/m,
    ],
    [
      'slower gives its estimate and interval in three decimals, and that it is not past the margin',
      rowVerdict('slower', { pSlower: 0.003, low: 0.9311, high: 0.9868, pairs: 70 }),
      0.9624,
      joined(
        /^update-index\.t1: slower 0\.962 \(0\.931-0\.987\), 95% /,
        /interval, 70 pairs: significantly slower, but not shown to /,
        /be past the 5% margin$/m,
      ),
    ],
    [
      'slower keeps an upper end just under 1 visibly under 1',
      rowVerdict('slower', { low: 0.9402, high: 0.9961, pairs: 41 }),
      0.968,
      joined(
        /^update-index\.t1: slower 0\.968 \(0\.940-0\.996\), 95% /,
        /interval, 41 pairs: significantly slower, but not shown to /,
        /be past the 5% margin$/m,
      ),
    ],
  ];
  for (const [what, verdict, relativeQps, line] of lines) {
    test(`verdict line: ${what}`, () => {
      const view = judged();
      const second = view.tests[1]!;
      second.relativeQps = relativeQps;
      second.verdict = verdict;
      const text = renderComparison(view, 'text');
      assert.match(text, line);
      assert.doesNotMatch(text, /baseline varies|rerun with more rounds/);
      // The same line in markdown and html (escaped), where people read the report and the email.
      const written = line.exec(text)![0];
      assert.ok(renderComparison(view, 'md').includes(escapeMarkdown(written)), `md lacks ${escapeMarkdown(written)}`);
      // HTML puts the test and its verdict in cells of their own, the rest of the line beside them.
      const html = renderComparison(view, 'html');
      const detail = escapeHtml(written.replace(/^update-index\.t1: [a-z]+,? ?/, ''));
      assert.ok(html.includes(detail), `html lacks ${detail}`);
      assert.match(
        html,
        new RegExp(`>update-index\\.t1</td><td[^>]*font-weight:bold;background-color:[^>]*>${verdict.kind}</td>`),
      );
    });
  }

  test('every judged test gets a line, the regression first as it ran', () => {
    const text = renderComparison(judged(), 'text');
    const section = text.slice(text.indexOf('Verdicts\n'), text.indexOf('Per operation'));
    assert.deepEqual(
      section
        .split('\n')
        .filter((l) => /^\S+\.t1: /.test(l))
        .map((l) => l.split(':')[0]),
      ['point-query.t1', 'update-index.t1'],
    );
    assert.match(
      section,
      joined(
        /^point-query\.t1: regression, C\/B 0\.96 < 0\.95, p=0\.0143; /,
        /grew: wKB\/o x30\.00, r\/o from 0; 95% interval 0\.93-0\.98, /,
        /10 pairs$/m,
      ),
    );
  });

  test('json keeps every verdict figure; csv gives them on both records of the test', () => {
    const view = judged();
    view.tests[1]!.verdict = rowVerdict('unstable', { low: 0, high: null, detectableDrop: 1, pairs: 1, noise: null });
    assert.deepEqual(JSON.parse(renderComparison(view, 'json')), view);
    const records = parseCsv(renderComparison(view, 'csv'));
    const header = records[0]!;
    const at = (record: string[], name: string): string => record[header.indexOf(name)]!;
    assert.deepEqual(
      records.slice(1).map((r) => at(r, 'verdict')),
      ['regression', 'regression', 'unstable', 'unstable'],
    );
    assert.deepEqual(
      ['low', 'high', 'confidence', 'detectable_drop', 'pairs', 'noise'].map((n) => at(records[1]!, n)),
      ['0.93', '0.98', '0.95', '0.031', '10', '0.03'],
    );
    assert.deepEqual(
      ['low', 'high', 'detectable_drop', 'pairs', 'noise'].map((n) => at(records[4]!, n)),
      ['0', '', '1', '1', ''],
    );
  });

  test('slower is its own kind in every format: the table, csv, json and the chart of text, md and html', () => {
    const view = judged();
    view.tests[1]!.relativeQps = 0.9624;
    view.tests[1]!.verdict = rowVerdict('slower', {
      pSlower: 0.003,
      low: 0.9311,
      high: 0.9868,
      detectableDrop: 0.05,
      pairs: 70,
    });
    assert.match(
      renderComparison(view, 'text'),
      /^update-index\.t1 +2510 +2611 +0\.96 +0\.93-0\.99 +5% +70 +.* slower$/m,
    );
    assert.match(renderComparison(view, 'text'), /^update-index\.t1 +#[#| ]+ +0\.96 +slower$/m);
    assert.match(renderComparison(view, 'md'), /\| update-index\.t1 \|.*\| slower +\|$/m);
    const html = renderComparison(view, 'html');
    assert.match(html, />slower<\/td>/);
    assert.ok(
      html.includes(TONE_COLORS.slower) && TONE_COLORS.slower !== TONE_COLORS.unstable,
      'the slower bar has its own colour',
    );
    const records = parseCsv(renderComparison(view, 'csv'));
    assert.deepEqual(
      records.slice(1).map((r) => r[records[0]!.indexOf('verdict')]),
      ['regression', 'regression', 'slower', 'slower'],
    );
    const json = JSON.parse(renderComparison(view, 'json')) as ComparisonView;
    assert.equal(json.tests[1]!.verdict!.kind, 'slower');
    assert.deepEqual([json.tests[1]!.verdict!.low, json.tests[1]!.verdict!.high], [0.9311, 0.9868]);
  });

  test('html shows the interval and detectable drop cells, and the lines', () => {
    const html = renderComparison(judged(), 'html');
    assert.match(
      html,
      /<th align="right"[^>]*>95% interval<\/th><th align="right"[^>]*>detect<\/th><th align="right"[^>]*>pairs<\/th>/,
    );
    assert.match(
      html,
      joined(
        />0\.96<\/td><td align="right"[^>]*>0\.93-0\.98<\/td><td /,
        /align="right"[^>]*>4%<\/td><td align="right"[^>]*>10<\/td>/,
      ),
    );
    assert.match(html, />update-index\.t1<\/td><td[^>]*>unstable<\/td><td[^>]*>C\/B 1\.04, 95% interval 0\.88-1\.21: /);
    assert.ok(html.includes('cannot rule out a drop larger than the 5% margin'));
  });

  test('a headline counts the verdicts, worst first, above everything else', () => {
    const text = renderComparison(judged(), 'text');
    assert.match(text, /^qpswatch comparison: .*\n=+\n\n1 regression, 1 unstable\n/);
    const html = renderComparison(judged(), 'html');
    assert.match(
      html,
      /<\/h1>\n<p[^>]*><span[^>]*background-color:#ffebe9[^>]*>1 regression<\/span><span[^>]*>1 unstable</,
    );
  });

  test('cells are coloured by verdict: in HTML, and in text only when asked for (a terminal)', () => {
    const html = renderComparison(judged(), 'html');
    assert.match(html, /background-color:#ffebe9;color:#a40e26">0\.96<\/td>/);
    assert.match(html, /background-color:#ffebe9;color:#a40e26">regression<\/td>/);
    assert.doesNotMatch(renderComparison(judged(), 'text'), /\u001b/);
    const painted = renderComparison(judged(), 'text', undefined, { color: true });
    assert.match(painted, /\u001b\[31m0\.96\u001b\[0m/);
    assert.match(painted, /\u001b\[31mregression\u001b\[0m/);
    // colour changes nothing else
    assert.equal(painted.replace(/\u001b\[[0-9]*m/g, ''), renderComparison(judged(), 'text'));
  });

  test('a session without verdicts has no verdict column', () => {
    const text = renderComparison(sampleView(), 'text');
    assert.doesNotMatch(text, /verdict|interval|detect/);
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
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as ComparisonView;
    assert.notDeepEqual(Object.keys(reversed), Object.keys(view));
    const json = renderComparison(reversed, 'json');
    assert.equal(json, renderComparison(view, 'json'));
    assert.deepEqual(Object.keys(JSON.parse(json) as object), [
      'sessionId',
      'suite',
      'rounds',
      'startedAt',
      'finishedAt',
      'baseline',
      'candidate',
      'host',
      'tests',
    ]);
    assert.deepEqual(Object.keys((JSON.parse(json) as ComparisonView).host), [
      'cores',
      'cpuModel',
      'kernel',
      'memoryGB',
      'smt',
    ]);
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

test('a time figure the samples lack (offµs/o stored before it existed) prints "-", not an error', () => {
  const v = sampleView();
  for (const row of v.tests) {
    row.candidate.perOp.offCpuMicrosPerOp = Number.NaN;
    row.baseline.perOp.offCpuMicrosPerOp = Number.NaN;
  }
  for (const format of ['text', 'md', 'csv', 'json', 'html'] as const) assert.ok(renderComparison(v, format));
  // An Infinity stays garbage, for a time figure too.
  v.tests[0]!.candidate.perOp.offCpuMicrosPerOp = Number.POSITIVE_INFINITY;
  assert.throws(() => renderComparison(v, 'text'), /view\.tests\[0\]\.candidate\.perOp\.offCpuMicrosPerOp/);
});

describe('garbage in', () => {
  const broken: [string, (view: ComparisonView) => void, string][] = [
    [
      'NaN per-op figure',
      (v) => {
        v.tests[0]!.candidate.perOp.cpuPerOp = Number.NaN;
      },
      'view.tests[0].candidate.perOp.cpuPerOp',
    ],
    [
      'Infinity counter',
      (v) => {
        v.tests[1]!.baseline.dbPerOp['Innodb_rows_updated'] = Number.POSITIVE_INFINITY;
      },
      'view.tests[1].baseline.dbPerOp.Innodb_rows_updated',
    ],
    [
      'NaN relative QPS',
      (v) => {
        v.tests[0]!.relativeQps = Number.NaN;
      },
      'view.tests[0].relativeQps',
    ],
    [
      'median outside min-max',
      (v) => {
        v.tests[0]!.baseline.qpsMin = 20000;
      },
      'view.tests[0].baseline.qps',
    ],
    [
      'negative QPS',
      (v) => {
        v.tests[1]!.candidate.qpsMin = -1;
      },
      'view.tests[1].candidate.qpsMin',
    ],
    [
      'zero threads',
      (v) => {
        v.tests[1]!.threads = 0;
      },
      'view.tests[1].threads',
    ],
    [
      'fractional samples',
      (v) => {
        v.tests[0]!.candidate.samples = 2.5;
      },
      'view.tests[0].candidate.samples',
    ],
  ];
  for (const [what, breakIt, path] of broken) {
    for (const format of REPORT_FORMATS) {
      test(`${what} is refused in ${format}, naming ${path}`, () => {
        const view = sampleView();
        breakIt(view);
        assert.throws(
          () => renderComparison(view, format),
          (error: unknown) => error instanceof InvalidReportDataError && error.path === path,
        );
      });
    }
  }
});

describe('the hint in words', () => {
  const grew = (metric: string, baseline: number, candidate: number) => ({
    metric,
    baseline,
    candidate,
    ratio: candidate / baseline,
  });

  test('resources that grew are named', () => {
    assert.equal(hintText([grew('wKB/o', 1, 1.57)]), 'grew: wKB/o x1.57');
  });

  test('only off-CPU time grew: the time went to waiting', () => {
    assert.equal(
      hintText([grew('offµs/o', 500, 900)]),
      'no resource grew; offµs/o x1.80: the time went to waiting (IO, locks, sleeps)',
    );
  });

  test('nothing grew: the same work per operation, slower', () => {
    assert.equal(hintText([]), 'grew: no per-op figure (the host did the same work per operation, slower)');
  });

  test("a regression's verdict line carries it", () => {
    const view = sampleView();
    const row = view.tests[0]!;
    const verdict: RowVerdict = { ...rowVerdict('regression'), hint: [grew('offµs/o', 500, 900)] };
    const text = renderComparison({ ...view, tests: [{ ...row, relativeQps: 0.55, verdict }] }, 'text');
    assert.match(text, /no resource grew; offµs\/o x1\.80: the time went to waiting \(IO, locks, sleeps\)/);
  });

  test('the per-op table shows offµs/o where the samples have it', () => {
    const view = sampleView();
    const row = view.tests[0]!;
    const withOffCpu = (side: typeof row.baseline, value: number) => ({
      ...side,
      perOp: { ...side.perOp, offCpuMicrosPerOp: value },
    });
    const tests = [{ ...row, baseline: withOffCpu(row.baseline, 500), candidate: withOffCpu(row.candidate, 900) }];
    const text = renderComparison({ ...view, tests }, 'text');
    assert.match(text, /cpuµs\/o +offµs\/o +target/);
    assert.match(text, /^C\/B .* 1\.80 *$/m);
    assert.doesNotMatch(renderComparison(view, 'text'), /offµs/, 'absent where no sample has it');
  });
});
