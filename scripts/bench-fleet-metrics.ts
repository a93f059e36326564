// npm run bench:fleet-metrics -- [options]: how fast `qpswatch metrics` answers over a fleet's store. Fills a temp
// SQLite store with 100,000 samples of two hosts, starts the real command on it, and times /metrics; with --mysql,
// also copies that store into a scratch MariaDB with the real `store copy` and times /metrics over it beside SQLite.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median } from '../src/analysis/index.js';
import { InputError } from '../src/errors.js';
import { defaultEnv, start, type ChildHandle } from '../src/exec/index.js';
import { projectRoot } from '../src/paths.js';
import { startResultsServer, STORE_PASSWORD, type ResultsServer } from '../test/helpers/results-db.js';
import { freePort, waitForHealthz } from './bench/daemon-idle.js';
import { BENCH_TESTS, BENCH_UPSTREAM_CONFIGS, fillStore } from './bench/daemon-store.js';
import { copyIntoMysql, mysqlStoreEnvText, unequalTables } from './bench/store-copy.js';
import { benchWorkDir } from './bench/work-dir.js';

const HELP = `Usage: npm run bench:fleet-metrics -- [--samples N] [--scrapes N] [--mysql] [--dir DIR]

Fills a temp SQLite store through the Store API (one transaction per sample, as sessions write them) with
--samples samples (default 100000) of two hosts (2 series x 20 versions x ${BENCH_TESTS.length} tests, 5-round
sessions, the sweeps of version pairs taking turns between the hosts, each host with its checks), then starts
\`node bin/qpswatch.js metrics --listen 127.0.0.1:PORT\` on it (the built CLI: npm run build), scrapes /metrics
once to warm up, then --scrapes more times (default 50), and prints the median and p95 latency. Target: median
under 200 ms (issue 22). The store goes under /dev/shm when there is one (--dir to choose).

--mysql: the same over that store in MySQL. Starts a scratch MariaDB as bench:store-copy does (this host's
mariadbd, own datadir on /dev/shm), runs \`node bin/qpswatch.js store copy --from sqlite:PATH\` into an empty
database (prints its time and per-table counts; exit 1 if any differs), then starts a second \`metrics\` whose
config has store_backend: mysql on that database (the password in QPSWATCH_STORE_PASSWORD), and scrapes the two
commands taking turns (each round in the other order), so both sides' figures and their ratio come from one run
on the same (shared, noisy) machine. Everything started is stopped at the end, the MariaDB too.
Progress goes to stderr, the figures to stdout.
`;

const TARGET_MEDIAN_MS = 200;

interface Options {
  samples: number;
  scrapes: number;
  mysql: boolean;
  dir: string | undefined;
}

class BenchUsageError extends InputError {}

function whole(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new BenchUsageError(`${flag} ${JSON.stringify(text)}: expected a whole number from ${min} to ${max}`);
  return n;
}

function parseOptions(argv: readonly string[]): Options | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        samples: { type: 'string' },
        scrapes: { type: 'string' },
        mysql: { type: 'boolean' },
        dir: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new BenchUsageError(`${(err as Error).message}; see --help`);
  }
  if (values.help === true) return 'help';
  return {
    samples: whole('--samples', values.samples, 100_000, 320, 10_000_000),
    scrapes: whole('--scrapes', values.scrapes, 50, 2, 10_000),
    mysql: values.mysql === true,
    dir: values.dir,
  };
}

const say = (line: string): void => void process.stderr.write(`[bench:fleet-metrics] ${line}\n`);
const ms = (x: number): string => `${x.toFixed(1)} ms`;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function timedScrape(url: string): Promise<{ ms: number; text: string }> {
  const begin = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.trim()}`);
  return { ms: performance.now() - begin, text };
}

/** One `qpswatch metrics` to time: its config and environment. */
interface Side {
  label: string;
  config: string;
  env: Record<string, string>;
  /** How the environment adds to defaultEnv, for the report. */
  envText?: string;
}

/** A config of the bench's upstreams on `stateDir`, with `store` (the store's settings) before them. */
function writeConfig(path: string, stateDir: string, store: readonly string[]): string {
  const upstreams = BENCH_UPSTREAM_CONFIGS.map((u) => `  - ${JSON.stringify(u)}`);
  const lines = [`state_dir: ${JSON.stringify(stateDir)}`, 'log_level: warn', ...store, 'upstreams:', ...upstreams];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function fill(dir: string, samples: number): Promise<{ lines: string[]; sqlitePath: string; side: Side }> {
  mkdirSync(join(dir, 'state'));
  const sqlitePath = join(dir, 'state', 'qpswatch.sqlite');
  say(`filling a store with ${samples} samples of 2 hosts under ${dir}`);
  const begin = performance.now();
  const filled = await fillStore(sqlitePath, samples, 2);
  await filled.store.close();
  const seconds = (performance.now() - begin) / 1000;
  return {
    sqlitePath,
    side: {
      label: 'sqlite',
      config: writeConfig(join(dir, 'qpswatch.yaml'), join(dir, 'state'), []),
      env: defaultEnv(),
    },
    lines: [
      `store: ${filled.samples} samples, ${filled.sessions} done sessions, ${filled.checks} checks, 2 hosts ` +
        `(written through the Store API in ${seconds.toFixed(1)} s)`,
    ],
  };
}

/**
 * Copies the SQLite store into a fresh database of `server` with the real command, and returns the side that serves
 * it (a config with store_backend: mysql) and the copy's lines; `equal` is false when a table's counts differ.
 */
async function copyToMysql(
  dir: string,
  server: ResultsServer,
  sqlitePath: string,
): Promise<{ lines: string[]; equal: boolean; side: Side }> {
  const { database, user } = await server.freshDatabase();
  say(`copying the store into ${database}`);
  const copy = await copyIntoMysql(server, database, sqlitePath);
  const off = unequalTables(copy.counts);
  const stateDir = join(dir, 'state-mysql');
  mkdirSync(stateDir);
  const store = [
    'store_backend: mysql',
    `store_socket: ${JSON.stringify(server.scratch.socket)}`,
    `store_user: ${user}`,
  ];
  const config = writeConfig(join(dir, 'qpswatch-mysql.yaml'), stateDir, [...store, `store_database: ${database}`]);
  return {
    equal: off.length === 0,
    side: {
      label: 'mysql',
      config,
      env: { ...defaultEnv(), QPSWATCH_STORE_PASSWORD: STORE_PASSWORD },
      envText: 'QPSWATCH_STORE_PASSWORD',
    },
    lines: [
      `copy: ${copy.command}`,
      `  (${mysqlStoreEnvText(server, database)})`,
      `copy into an empty database: ${copy.seconds.toFixed(2)} s (the whole command: start, checks, copy, counts)`,
      `per-table counts: ${off.length === 0 ? 'source and target equal in every table' : `UNEQUAL: ${off.join(', ')}`}`,
      ...copy.result.stdout
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    ],
  };
}

interface Running {
  side: Side;
  child: ChildHandle;
  listen: string;
  times: number[];
  warmUpMs: number;
  text: string;
}

/** Starts each side's `qpswatch metrics`, scrapes them taking turns, and stops them all, even on failure. */
async function scrapeFleet(sides: readonly [Side, ...Side[]], scrapes: number): Promise<string[]> {
  const running: Running[] = [];
  try {
    for (const side of sides) {
      const listen = `127.0.0.1:${await freePort()}`;
      const child = start({
        argv: [
          process.execPath,
          join(projectRoot, 'bin', 'qpswatch.js'),
          '--config',
          side.config,
          'metrics',
          '--listen',
          listen,
        ],
        cwd: projectRoot,
        env: side.env,
        timeoutMs: 3_600_000,
      });
      running.push({ side, child, listen, times: [], warmUpMs: 0, text: '' });
      await waitForHealthz(`http://${listen}/healthz`, child);
    }
    for (const r of running) {
      const first = await timedScrape(`http://${r.listen}/metrics`);
      r.warmUpMs = first.ms;
      r.text = first.text;
    }
    // Taking turns, each round in the other order: a burst of load on the shared host falls on both sides.
    for (let i = 0; i < scrapes; i++)
      for (const r of i % 2 === 0 ? running : [...running].reverse()) {
        const scrape = await timedScrape(`http://${r.listen}/metrics`);
        r.times.push(scrape.ms);
        r.text = scrape.text;
      }
    return report(running as [Running, ...Running[]], scrapes);
  } finally {
    for (const r of running) {
      const end = await r.child.stop(15_000);
      say(`qpswatch metrics (${r.side.label}) stopped (exit ${end.exitCode ?? end.signal})`);
    }
  }
}

/** The figures of each side, the first (SQLite) being the one the others are compared with. */
function report(running: readonly [Running, ...Running[]], scrapes: number): string[] {
  const [base, ...others] = running;
  const width = Math.max(...running.map((r) => r.side.label.length));
  const served = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('qpswatch_'));
  const lines: string[] = [];
  for (const r of running) {
    const env = r.side.envText === undefined ? '' : `   (${r.side.envText} in the environment)`;
    lines.push(`${r.side.label}: node bin/qpswatch.js --config ${r.side.config} metrics --listen ${r.listen}${env}`);
  }
  lines.push(
    `warm-up scrape (the command warms its cache at start; this may wait for it): ` +
      running.map((r) => `${r.side.label} ${ms(r.warmUpMs)}`).join(', '),
    `next ${scrapes} scrapes of each${others.length > 0 ? ', taking turns' : ''}:`,
  );
  for (const r of running) {
    const mid = median(r.times);
    const met = mid < TARGET_MEDIAN_MS ? 'met' : 'MISSED';
    lines.push(
      `  ${r.side.label.padEnd(width)}  median ${ms(mid)}, p95 ${ms(percentile(r.times, 0.95))}, ` +
        `max ${ms(Math.max(...r.times))}   [target median < ${TARGET_MEDIAN_MS} ms: ${met}]`,
    );
  }
  const p95 = (t: readonly number[]): number => percentile(t, 0.95);
  for (const r of others) {
    const ratio = (f: (t: readonly number[]) => number): string => `${(f(r.times) / f(base.times)).toFixed(2)}x`;
    lines.push(`  ${r.side.label} / ${base.side.label}: median ${ratio(median)}, p95 ${ratio(p95)}`);
  }
  for (const r of running) {
    const samples = served(r.text);
    const hosts = new Set(samples.flatMap((l) => /host="([^"]+)"/.exec(l)?.[1] ?? []));
    const same =
      r === base
        ? ''
        : `; ${sameSamples(samples, served(base.text)) ? 'the same' : 'NOT the same'} as ${base.side.label}`;
    lines.push(
      `served (${r.side.label}): ${samples.length} qpswatch_* samples of ${hosts.size} hosts ` +
        `(${[...hosts].join(', ')}), ${(r.text.length / 1024).toFixed(0)} KiB per scrape${same}`,
    );
  }
  return lines;
}

function sameSamples(a: readonly string[], b: readonly string[]): boolean {
  const sorted = (x: readonly string[]): string => [...x].sort().join('\n');
  return sorted(a) === sorted(b);
}

async function main(argv: readonly string[]): Promise<number> {
  let dir: string | undefined;
  let server: ResultsServer | undefined;
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    dir = benchWorkDir(opts.dir, 'qpswatch-bench-fleet-');
    const { lines, sqlitePath, side } = await fill(dir, opts.samples);
    const sides: [Side, ...Side[]] = [side];
    if (opts.mysql) {
      say('starting a scratch MariaDB');
      server = await startResultsServer('qpsw-fm-');
      const copied = await copyToMysql(dir, server, sqlitePath);
      lines.push(...copied.lines);
      if (!copied.equal) {
        process.stdout.write(`bench:fleet-metrics\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
        say('store copy left unequal counts; /metrics over MySQL not timed');
        return 1;
      }
      sides.push(copied.side);
    }
    const figures = await scrapeFleet(sides, opts.scrapes);
    process.stdout.write(`bench:fleet-metrics\n${[...lines, ...figures].map((l) => `  ${l}`).join('\n')}\n`);
    return 0;
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    if (server !== undefined) {
      await server.close().catch((err: unknown) => say(`stopping the scratch MariaDB: ${String(err)}`));
      say('scratch MariaDB stopped');
    }
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
