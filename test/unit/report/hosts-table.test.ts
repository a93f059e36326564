import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Figures, HistoryView, HostsHistoryView } from '../../../src/model/index.js';
import { hostsSideBySide, renderHostsHistory } from '../../../src/report/index.js';
import { parseCsv } from './csv-parse.js';

const figures = (qps: number): Figures => ({
  qps,
  cpuPerOp: 0.001,
  csPerOp: 2,
  readsPerOp: 0,
  readKBPerOp: 0,
  writeKBPerOp: 0.01,
});

/** One host's own history, as seriesHistory makes it: its versions, its base first, its QPS. */
function hostHistory(host: string, versions: string[], qps: Record<string, Array<number | null>>): HistoryView {
  return {
    series: 'mariadb-10.11',
    flavor: 'mariadb',
    baseIndex: 0,
    versions: versions.map((version) => ({ version, label: `mariadb-${version}`, imported: false })),
    tests: Object.entries(qps).map(([test, values]) => ({
      test,
      threads: 1,
      figures: values.map((v) => (v === null ? null : figures(v))),
    })),
    host,
    generatedAt: '2025-01-01T00:00:00.000Z',
  };
}

/**
 * Host A is five times faster than host B: a ratio across hosts would read 5 or 0.2; within each host the figures
 * stay near 1. B never measured 10.11.4, and C never measured the base.
 */
function fleetView(): HostsHistoryView {
  const a = hostHistory('fp-a', ['10.11.2', '10.11.3', '10.11.4'], {
    'update-index': [10000, 9000, 8000],
    insert: [5000, 5000, 5500],
  });
  const b = hostHistory('fp-b', ['10.11.2', '10.11.3'], { 'update-index': [2000, 1900] });
  const chainedB: HistoryView = {
    ...b,
    tests: [
      {
        ...b.tests[0]!,
        chained: [
          { relativeQps: 1, low: 1, high: 1, steps: 0, step: null },
          { relativeQps: 0.94, low: 0.9, high: 0.98, steps: 1, step: null },
        ],
      },
    ],
  };
  return {
    series: 'mariadb-10.11',
    flavor: 'mariadb',
    base: '10.11.2',
    versions: ['10.11.2', '10.11.3', '10.11.4'],
    hosts: [
      { fingerprintId: 'fp-a', inventory: 'Xeon <script>x</script>, 2 sockets, 48 cores', history: a },
      { fingerprintId: 'fp-b', inventory: 'EPYC & co, 1 socket, 32 cores', history: chainedB },
      { fingerprintId: 'fp-"c"', inventory: 'Ryzen', history: null },
    ],
    generatedAt: '2025-01-01T00:00:00.000Z',
  };
}

describe('hostsSideBySide', () => {
  test('a column per test and host, each relative to the base of its own host, aligned on the versions', () => {
    const [table, ...more] = hostsSideBySide(fleetView());
    assert.equal(more.length, 0);
    assert.deepEqual(table!.level, { threads: 1 });
    assert.deepEqual(
      table!.columns.map((c) => `${c.test}@${c.host}`),
      ['update-index@0', 'update-index@1', 'update-index@2', 'insert@0', 'insert@1', 'insert@2'],
    );
    const values = table!.rows.map((row) => row.map((cell) => (cell === null ? null : cell.value)));
    assert.deepEqual(values, [
      [1, 1, null, 1, null, null],
      [0.9, 0.94, null, 1, null, null],
      [0.8, null, null, 1.1, null, null],
    ]);
    // B's 10.11.3 is its own chained estimate, A's a median: each cell keeps where it came from.
    assert.deepEqual([table!.rows[1]![0]!.source, table!.rows[1]![1]!.source], ['median', 'chained']);
  });

  test('levels apart: a test at 8 threads or under a memory setting gets a table of its own', () => {
    const view = fleetView();
    const a = view.hosts[0]!.history!;
    const more: HistoryView = {
      ...a,
      tests: [
        ...a.tests,
        { test: 'update-index', threads: 8, figures: [figures(40000), figures(36000), null] },
        { test: 'update-index', threads: 1, memory: 'io-bound', figures: [figures(100), null, figures(120)] },
      ],
    };
    const tables = hostsSideBySide({ ...view, hosts: [{ ...view.hosts[0]!, history: more }, view.hosts[1]!] });
    assert.deepEqual(
      tables.map((t) => t.level),
      [{ threads: 1 }, { threads: 8 }, { threads: 1, memory: 'io-bound' }],
    );
    assert.deepEqual(
      tables[1]!.rows.map((row) => row.map((c) => c?.value ?? null)),
      [
        [1, null],
        [0.9, null],
        [null, null],
      ],
    );
    assert.equal(tables[2]!.rows[2]![0]!.value, 1.2);
  });
});

describe('renderHostsHistory', () => {
  test('text: the hosts by fingerprint id and inventory, then the table; one without the base says so', () => {
    const text = renderHostsHistory(fleetView(), 'text');
    assert.match(text, /^h1: fp-a \(Xeon <script>x<\/script>, 2 sockets, 48 cores\)$/m);
    assert.match(text, /^h3: fp-"c" \(Ryzen\): base 10\.11\.2 not measured on this host, no figures$/m);
    assert.match(
      text,
      /^version +update-index h1 +update-index h2 +update-index h3 +insert h1 +insert h2 +insert h3$/m,
    );
    assert.match(text, /^10\.11\.3 +0\.90~ +0\.94 \(0\.90-0\.98\) +- +1\.00~ +- +-$/m);
    assert.match(text, /each host against the base measured on that same host/);
  });

  test('html: every host name and inventory escaped, no markup of theirs survives', () => {
    const html = renderHostsHistory(fleetView(), 'html');
    assert.ok(!html.includes('<script>'), 'a host inventory became markup');
    assert.ok(html.includes('Xeon &lt;script&gt;x&lt;/script&gt;'));
    assert.ok(html.includes('EPYC &amp; co'));
    assert.ok(html.includes('fp-&quot;c&quot;'));
  });

  test('markdown: table cells and host lines escaped', () => {
    const md = renderHostsHistory(fleetView(), 'md');
    assert.match(md, /^- h1: fp-a \(Xeon \\<script\\>x\\<\/script\\>, 2 sockets, 48 cores\)$/m);
    assert.match(md, /^\| version +\| update-index h1 \|/m);
  });

  test('json: hosts, and per test and host the values aligned with the versions', () => {
    const json = JSON.parse(renderHostsHistory(fleetView(), 'json')) as {
      base: string;
      versions: string[];
      hosts: Array<{ fingerprintId: string; baseMeasured: boolean }>;
      columns: Array<{ test: string; host: string; relativeQps: Array<{ value: number; source: string } | null> }>;
    };
    assert.equal(json.base, '10.11.2');
    assert.deepEqual(
      json.hosts.map((h) => [h.fingerprintId, h.baseMeasured]),
      [
        ['fp-a', true],
        ['fp-b', true],
        ['fp-"c"', false],
      ],
    );
    const b = json.columns.find((c) => c.test === 'update-index' && c.host === 'fp-b')!;
    assert.deepEqual(
      b.relativeQps.map((r) => (r === null ? null : [r.value, r.source])),
      [[1, 'chained'], [0.94, 'chained'], null],
    );
  });

  test('csv: one record per version, test and host with a figure', () => {
    const rows = parseCsv(renderHostsHistory(fleetView(), 'csv'));
    const [header, ...records] = rows;
    assert.equal(header![7], 'host');
    const of = (version: string, test: string, host: string): string | undefined =>
      records.find((r) => r[3] === version && r[4] === test && r[7] === host)?.[9];
    assert.equal(of('10.11.4', 'update-index', 'fp-a'), '0.8');
    assert.equal(of('10.11.4', 'update-index', 'fp-b'), undefined);
    assert.equal(of('10.11.3', 'update-index', 'fp-b'), '0.94');
    assert.equal(records.length, 3 + 2 + 3);
  });
});
