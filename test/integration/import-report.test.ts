import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { messageLines, runCli } from '../helpers/cli.js';
import { joined } from '../helpers/pattern.js';

/**
 * A made-up history, imported through the CLI as a person would bring in an earlier study, then reported: every
 * relative value below was computed by hand from the CSV (e.g. 9100 / 10000 = 0.91, 0.008 / 0.005 = 1.60), and
 * r/o of point-query is 0 in every version, so its ratio is 0/0 and prints as 1.00, as the reference studies do.
 */
const HISTORY = `flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o,note
mariadb,10.2.30,point-query,1,10000,0.002,5,0,0,0,the base
mariadb,10.3.39,point-query,1,9100,0.0022,5.5,0,0,0,
mariadb,10.4.34,point-query,1,8700,0.0023,6,0,0,0,
mariadb,10.2.30,update-index,1,4000,0.005,8,0.1,1.6,12,
mariadb,10.3.39,update-index,1,3000,0.0065,10,0.1,1.6,18,
mariadb,10.4.34,update-index,1,2400,0.008,12,0.2,3.2,24,
`;

let root = '';
const config = (name: string, state: string) =>
  writeFile(
    join(root, name),
    `state_dir: ${join(root, state)}\nupstreams:\n  - { name: mariadb-old, ` +
      `remote: /nonexistent/server.git, flavor: mariadb, series: ">=10.2 ` +
      `<10.5", build_profile: mariadb-rel, server_profile: relaxed, base: ` +
      `"10.2.30" }\n`,
  );
const cli = (...args: string[]) => runCli(['--config', join(root, 'a.yaml'), ...args], { cwd: root });
const cliB = (...args: string[]) => runCli(['--config', join(root, 'b.yaml'), ...args], { cwd: root });

/** The cells of the text report's line that starts with `label`. */
function cells(report: string, label: RegExp): string[] {
  const line = report.split('\n').find((l) => label.test(l));
  assert.ok(line, `a line matching ${label} in\n${report}`);
  return line.trim().split(/\s+/);
}

before(async () => {
  root = await mkdtemp('/tmp/qpsw-imp-');
  await config('a.yaml', 'state-a');
  await config('b.yaml', 'state-b');
  await writeFile(join(root, 'history.csv'), HISTORY);
});

after(() => rm(root, { recursive: true, force: true }));

describe('import a made-up history, then report it', () => {
  test('import stores every row, marked as imported', async () => {
    const result = await cli('import', 'history.csv');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'imported 6 row(s) from history.csv: 6 new, 0 replaced\n');
  });

  test('report reproduces the hand-computed relative QPS, to the digit, as medians of unpaired runs', async () => {
    const result = await cli('report');
    assert.equal(result.code, 0, result.stderr);
    // One table per thread count and test family, as the studies print it: a row per version, a column per test.
    const [, points = '', writes = ''] = result.stdout.split(/^Relative QPS at /m);
    assert.match(points, /^1 thread: point queries \(version \/ 10\.2\.30\*\)$/m);
    assert.match(writes, /^1 thread: writes \(version \/ 10\.2\.30\*\)$/m);
    assert.deepEqual(cells(points, /^version /), ['version', 'point-query']);
    assert.deepEqual(cells(writes, /^version /), ['version', 'update-index']);
    const both = (version: RegExp) => [...cells(points, version), ...cells(writes, version).slice(1)];
    assert.deepEqual(both(/^10\.2\.30\* /), ['10.2.30*', '1.00~', '1.00~']);
    assert.deepEqual(both(/^10\.3\.39\* /), ['10.3.39*', '0.91~', '0.75~']);
    assert.deepEqual(both(/^10\.4\.34\* /), ['10.4.34*', '0.87~', '0.60~']);
    assert.match(result.stdout, /^series mariadb-old, flavor mariadb, base 10\.2\.30\*$/m);
    assert.match(result.stdout, /^~ median of unpaired runs, no interval$/m);
    assert.match(result.stdout, /\* imported/);
  });

  test('report reproduces the hand-computed per-op values relative to the base, with 0/0 as 1', async () => {
    const result = await cli('report');
    // cpu/o cs/o r/o rKB/o wKB/o o/s version, then the same relative to 10.2.30
    assert.deepEqual(cells(result.stdout, /^ *0\.008 /), [
      '0.008',
      '12',
      '0.2',
      '3.2',
      '24',
      '2400',
      '10.4.34*',
      '1.60',
      '1.50',
      '2.00',
      '2.00',
      '2.00',
      '0.60',
    ]);
    assert.deepEqual(cells(result.stdout, /^ *0\.0065 /), [
      '0.0065',
      '10',
      '0.1',
      '1.6',
      '18',
      '3000',
      '10.3.39*',
      '1.30',
      '1.25',
      '1.00',
      '1.00',
      '1.50',
      '0.75',
    ]);
    assert.deepEqual(cells(result.stdout, /^ *0\.0023 /), [
      '0.0023',
      '6',
      '0',
      '0',
      '0',
      '8700',
      '10.4.34*',
      '1.15',
      '1.20',
      '1.00',
      '1.00',
      '1.00',
      '0.87',
    ]);
  });

  test('--base moves the reference: 2400 / 3000 = 0.80', async () => {
    const result = await cli('report', '--base', '10.3.39', '--format', 'md');
    assert.equal(result.code, 0, result.stderr);
    const [, points = '', writes = ''] = result.stdout.split(/^## Relative QPS at /m);
    assert.match(points, /^\| version +\| point-query \|$/m);
    assert.match(points, /^\| 10\.2\.30\\\* \| +1\.10\\~ \|$/m);
    assert.match(points, /^\| 10\.4\.34\\\* \| +0\.96\\~ \|$/m);
    assert.match(writes, /^\| version +\| update-index \|$/m);
    assert.match(writes, /^\| 10\.2\.30\\\* \| +1\.33\\~ \|$/m);
    assert.match(writes, /^\| 10\.4\.34\\\* \| +0\.80\\~ \|$/m);
  });

  test('export, then import into another store, gives the same report', async () => {
    const exported = await cli('export', '--output', 'out.csv');
    assert.equal(exported.code, 0, exported.stderr);
    const imported = await cliB('import', 'out.csv');
    assert.equal(imported.code, 0, imported.stderr);
    const [a, b] = [await cli('report', '--format', 'csv'), await cliB('report', '--format', 'csv')];
    const strip = (csv: string) => csv.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T');
    assert.equal(strip(b.stdout), strip(a.stdout));
  });

  const bad: Array<[string, string, RegExp]> = [
    [
      'a bad header',
      'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o\nmariadb,10.2.30,x,1,5,0,0,0,0\n',
      joined(
        /^qpswatch: bad\.csv line 1: the header lacks column wkb_o; /,
        /expected /,
        /flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o/,
      ),
    ],
    [
      'a non-numeric cell',
      'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\n' +
        'mariadb,10.2.30,x,1,5,0,0,0,0,0\nmariadb,10.2.30,y,1,5,0,abc,0,0,0\n',
      /^qpswatch: bad\.csv line 3, column cs_o: "abc"/,
    ],
    [
      'a negative QPS',
      'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\nmariadb,10.2.31,x,1,-12,0,0,0,0,0\n',
      /^qpswatch: bad\.csv line 2, column qps: "-12"/,
    ],
  ];
  for (const [what, csv, message] of bad) {
    test(`an import file with ${what} names the line and column, exits 2 and imports nothing`, async () => {
      await writeFile(join(root, 'bad.csv'), csv);
      const before = (await cli('export')).stdout;
      const result = await cli('import', 'bad.csv');
      assert.equal(result.code, 2);
      const lines = messageLines(result.stderr);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, message);
      assert.equal((await cli('export')).stdout, before, 'nothing was imported, nothing was lost');
    });
  }

  test('a file that is not there, and a base with no results, are one line each', async () => {
    const missing = await cli('import', 'nope.csv');
    assert.equal(missing.code, 2);
    assert.deepEqual(messageLines(missing.stderr), ['qpswatch: import "nope.csv": no such file']);
    const base = await cli('report', '--base', '10.2.1');
    assert.equal(base.code, 2);
    assert.deepEqual(messageLines(base.stderr), [
      'qpswatch: base "10.2.1" has no results in series mariadb-old: use one ' +
        "of 10.2.30, 10.3.39, 10.4.34 (--base, or base: in the upstream's " +
        'config)',
    ]);
  });

  test('a FIFO, or a file that is not UTF-8, is refused in one line and nothing is imported', async () => {
    const before = (await cli('export')).stdout;
    const fifo = join(root, 'fifo.csv');
    spawnSync('mkfifo', [fifo]);
    // A FIFO nobody writes to would block a plain read forever; the import refuses it at once.
    const fromFifo = await cli('import', fifo);
    assert.equal(fromFifo.code, 2);
    assert.deepEqual(messageLines(fromFifo.stderr), [
      `qpswatch: import file ${fifo} is not a regular file (a FIFO): name a regular file`,
    ]);
    const latin1 = join(root, 'latin1.csv');
    await writeFile(
      latin1,
      Buffer.concat([
        Buffer.from('flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\nmariadb,10.11.6,caf'),
        Buffer.from([0xe9]),
        Buffer.from(',1,1000,0.002,5,0,0,0\n'),
      ]),
    );
    const bad = await cli('import', latin1);
    assert.equal(bad.code, 2);
    assert.deepEqual(messageLines(bad.stderr), [
      `qpswatch: import file ${latin1} is not UTF-8 text: a byte sequence that is not UTF-8 at byte 78 (line 2): ` +
        'name a text file, or save it as UTF-8',
    ]);
    assert.equal((await cli('export')).stdout, before, 'nothing was imported');
  });
});
