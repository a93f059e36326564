// npm run bench:store-copy -- [options]: how long `qpswatch store copy` takes to move a host's results into MySQL.
// Fills a temp SQLite store with 100,000 samples, starts a scratch MariaDB as the tests do, runs the real command
// twice (the copy, then the run that finds everything there) and prints the times and the per-table counts.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { InputError } from '../src/errors.js';
import { startResultsServer, type ResultsServer } from '../test/helpers/results-db.js';
import { BENCH_TESTS, fillStore } from './bench/daemon-store.js';
import { copyIntoMysql, mysqlStoreEnvText, unequalTables } from './bench/store-copy.js';
import { benchWorkDir } from './bench/work-dir.js';

const HELP = `Usage: npm run bench:store-copy -- [--samples N] [--batch-rows N] [--dir DIR]

Fills a temp SQLite store through the Store API with --samples samples (default 100000; each with its host
metrics and database counters) of two hosts (2 series x 20 versions x ${BENCH_TESTS.length} tests, 5-round sessions,
with their checks and verdicts), starts a scratch MariaDB (this host's mariadbd, own datadir on /dev/shm, as
the MySQL store's tests do), then runs \`node bin/qpswatch.js store copy --from sqlite:PATH\` into an empty
database twice: the copy, and a second run that must find every row there and write nothing. Prints both
times and the per-table counts (source and target equal). Target: 100,000 samples in seconds (issue 22).
--batch-rows is passed on (default: the command's 2000). Progress goes to stderr, the figures to stdout.
`;

interface Options {
  samples: number;
  batchRows: string | undefined;
  dir: string | undefined;
}

class BenchUsageError extends InputError {}

function parseOptions(argv: readonly string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        samples: { type: 'string' },
        'batch-rows': { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new BenchUsageError(`${(err as Error).message}; see --help`);
  }
  if (values.help === true) return 'help';
  const text = values.samples ?? '100000';
  const samples = Number(text);
  if (!/^\d+$/.test(text) || samples < 160 || samples > 10_000_000)
    throw new BenchUsageError(`--samples ${JSON.stringify(text)}: expected a whole number from 160 to 10000000`);
  return { samples, batchRows: values['batch-rows'], dir: values.dir };
}

const say = (line: string): void => void process.stderr.write(`[bench:store-copy] ${line}\n`);

async function main(argv: readonly string[]): Promise<number> {
  let dir: string | undefined;
  let server: ResultsServer | undefined;
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    dir = benchWorkDir(opts.dir, 'qpswatch-bench-copy-');
    mkdirSync(join(dir, 'state'));
    const sqlitePath = join(dir, 'state', 'qpswatch.sqlite');
    say(`filling a store with ${opts.samples} samples of 2 hosts under ${dir}`);
    const fillBegin = performance.now();
    const filled = await fillStore(sqlitePath, opts.samples, 2);
    await filled.store.close();
    const fillSeconds = (performance.now() - fillBegin) / 1000;
    say('starting a scratch MariaDB');
    server = await startResultsServer('qpsw-bc-');
    const { database } = await server.freshDatabase();
    say(`copying into ${database}`);
    const first = await copyIntoMysql(server, database, sqlitePath, opts.batchRows);
    say('copying again (every row there already)');
    const second = await copyIntoMysql(server, database, sqlitePath, opts.batchRows);
    const off = [...unequalTables(first.counts), ...unequalTables(second.counts)];
    const lines = [
      `store: ${filled.samples} samples, ${filled.sessions} sessions, ${filled.checks} checks, 2 hosts ` +
        `(written through the Store API in ${fillSeconds.toFixed(1)} s)`,
      `command: ${first.command}`,
      `  (${mysqlStoreEnvText(server, database)})`,
      `copy into an empty database: ${first.seconds.toFixed(2)} s (the whole command: start, checks, copy, counts)`,
      `second run, nothing to copy: ${second.seconds.toFixed(2)} s`,
      `per-table counts: ${off.length === 0 ? 'source and target equal in every table' : `UNEQUAL: ${off.join(', ')}`}`,
      '',
      ...first.result.stdout.trimEnd().split('\n'),
      '',
      ...second.result.stdout.trimEnd().split('\n').slice(-1),
    ];
    process.stdout.write(`bench:store-copy\n${lines.map((l) => (l === '' ? '' : `  ${l}`)).join('\n')}\n`);
    return off.length === 0 ? 0 : 1;
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    await server?.close().catch(() => undefined);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
