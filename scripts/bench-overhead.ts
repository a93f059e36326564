// npm run bench:overhead -- [options]: does watching move the result? Runs one quick-suite test with and without
// qpswatch's samplers, interleaved, on this host's MariaDB, and prints the QPS ratio (goal: at least 0.99).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.js';
import { InputError } from '../src/errors.js';
import { createLogger, resolveLogFormat } from '../src/log/index.js';
// measureTest is what a compare round runs per test.
import { measureTest } from '../src/session/index.js';
import { loadSuite, runArgv, runSysbench, type SuiteTest } from '../src/suite/index.js';
import { BenchServer } from './bench/bench-server.js';
import { renderOverheadReport, type MeasuredPair } from './bench/report.js';
import { timeSamplers } from './bench/sampler-cost.js';

/** exec, server and sysbench log here (warnings only): stdout is the report. */
const log = createLogger('warn', resolveLogFormat('auto', process.env, process.stderr.isTTY));

const GOAL = 0.99;
const SUITE = 'quick';
const PROFILE = 'relaxed';
const BASEDIR = '/usr';
const SAMPLER_TIMINGS = 200;

const HELP = `Usage: npm run bench:overhead -- [options]

Starts this host's MariaDB (/usr, profile relaxed) under a temp dir, loads the quick suite's table, warms up, then
runs one test in pairs, interleaved (A B, B A, ...): once plainly (sysbench only) and once as qpswatch compare
measures it (measureTest: host snapshot and SHOW GLOBAL STATUS before and after the run). Prints each pair's QPS,
the ratio with/without and its 95% interval, then the samplers' own cost timed directly. The goal is a ratio of at
least ${GOAL}. Progress goes to stderr, the report to stdout. About 4 minutes with the defaults.

Short runs by default: a pair's two runs are then seconds apart, so host noise slower than that cancels in the
pair's ratio, and more pairs fit in the time; and the samplers, which run between runs, weigh most against short ones.

Options:
  --test NAME      a test of the quick suite (default point-query)
  --threads N      client threads (default 1)
  --seconds N      length of each run (default 1)
  --pairs N        pairs of runs (default 100)
  --help

Exit codes: 0 done (whatever the ratio); 1 could not run; 2 bad option; 130 interrupted.
`;

interface BenchOptions {
  test: string;
  threads: number;
  seconds: number;
  pairs: number;
}

class BenchUsageError extends InputError {}

function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        test: { type: 'string' },
        threads: { type: 'string' },
        seconds: { type: 'string' },
        pairs: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new BenchUsageError(`${(err as Error).message}; see --help`);
  }
  if (values.help === true) return 'help';
  return {
    test: values.test ?? 'point-query',
    threads: whole('--threads', values.threads, 1, 1, 1024),
    seconds: whole('--seconds', values.seconds, 1, 1, 3600),
    pairs: whole('--pairs', values.pairs, 100, 2, 10_000),
  };
}

function whole(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new BenchUsageError(`${flag} ${JSON.stringify(text)}: expected a whole number from ${min} to ${max}`);
  return n;
}

function say(line: string): void {
  process.stderr.write(`[bench:overhead] ${line}\n`);
}

function findTest(name: string, threads: number, seconds: number): SuiteTest {
  const suite = loadSuite(SUITE, loadConfig({ env: {}, cwd: process.cwd() }).suites_dir);
  const test = suite.tests.find((t) => t.name === name);
  if (test === undefined)
    throw new BenchUsageError(
      `--test ${JSON.stringify(name)}: the ${SUITE} suite has no such test; ` +
        `use one of ${suite.tests.map((t) => t.name).join(', ')}`,
    );
  return { ...test, seconds, threads: [threads] };
}

/** Wall time from spawn to parsed result. exec does not stop a child started after the abort: check before each. */
async function timed<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  signal.throwIfAborted();
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

async function runPairs(
  server: BenchServer,
  test: SuiteTest,
  opts: BenchOptions,
  signal: AbortSignal,
): Promise<MeasuredPair[]> {
  const conn = server.connection;
  const device = server.dataDevice();
  const status = server.status;
  const sysbenchOpts = { logFile: server.sysbenchLog, timeoutMs: opts.seconds * 1000 + 120_000, signal, log };
  const without = (): Promise<number> =>
    runSysbench(runArgv(test, opts.threads, conn), sysbenchOpts).then((r) => r.qps);
  const withSamplers = (pair: number): Promise<number> =>
    measureTest({
      status,
      observer: {},
      conn,
      server: server.running,
      device,
      test,
      threads: opts.threads,
      round: pair,
      role: 'candidate',
      targetName: server.target.name,
      sysbenchLog: server.sysbenchLog,
      signal,
      log,
    }).then((s) => s.qps);

  say(`settling run: ${test.name}, ${opts.threads} thread(s), ${opts.seconds} s (not counted)`);
  await timed(signal, without);
  const pairs: MeasuredPair[] = [];
  for (let pair = 1; pair <= opts.pairs; pair++) {
    // A B, B A, ...: each side runs first as often as the other, so drift favours neither.
    const withFirst = pair % 2 === 0;
    const first = await timed(signal, withFirst ? () => withSamplers(pair) : without);
    const second = await timed(signal, withFirst ? without : () => withSamplers(pair));
    const [w, wo] = withFirst ? [first, second] : [second, first];
    pairs.push({ without: wo.value, with: w.value, withFirst, withoutWallMs: wo.ms, withWallMs: w.ms });
    say(
      `pair ${pair}/${opts.pairs} ` +
        `(${withFirst ? 'with first' : 'without first'}): without ` +
        `${wo.value.toFixed(1)} qps, with ${w.value.toFixed(1)} qps, ratio ` +
        `${(w.value / wo.value).toFixed(3)}`,
    );
  }
  return pairs;
}

/** The report, and whether the clean-up left nothing behind. */
async function bench(opts: BenchOptions, signal: AbortSignal): Promise<{ report: string; clean: boolean }> {
  const test = findTest(opts.test, opts.threads, opts.seconds);
  // Set-up (init, load, 5 s warm-up) takes about 15 s; a run its seconds plus some 50 ms to start sysbench.
  const minutes = ((opts.pairs * 2 + 1) * (opts.seconds + 0.05) + 15) / 60;
  say(
    `${opts.pairs} pairs of ${opts.seconds} s runs of ${test.name}, ` +
      `${opts.threads} thread(s): about ${minutes.toFixed(1)} minutes; load ` +
      `average ${loadavg()[0]!.toFixed(2)} (other work on the host adds ` +
      `noise)`,
  );
  const server = await BenchServer.create({ profile: PROFILE, basedir: BASEDIR, signal, say, log });
  let report: string;
  let clean = false;
  try {
    const suite = loadSuite(SUITE, server.config.suites_dir);
    await server.start(suite);
    await server.warmUp(suite);
    const pairs = await runPairs(server, test, opts, signal);
    say(`timing the samplers directly (${SAMPLER_TIMINGS} samples)`);
    const cost = await timeSamplers(server.status, server.dataDevice(), SAMPLER_TIMINGS);
    const ref = server.target.ref;
    const heading =
      `bench:overhead: ${test.name} (${test.script}), ${opts.threads} ` +
      `thread(s), ${opts.seconds} s runs, ${opts.pairs} pairs interleaved; ` +
      `${ref.flavor} ${ref.version}, profile ${ref.serverProfile}; load ` +
      `average ${loadavg()[0]!.toFixed(2)} at the end`;
    report = renderOverheadReport({ heading, seconds: opts.seconds, goal: GOAL, pairs, cost });
  } finally {
    clean = await server.close();
  }
  return { report, clean };
}

/** SIGINT and SIGTERM stop the running sysbench, then the server; a second one only says that it is on its way. */
function abortOnSignals(controller: AbortController): () => void {
  const onSignal = (sig: NodeJS.Signals): void => {
    if (controller.signal.aborted) return say(`${sig} again: still stopping the server, please wait`);
    say(`${sig}: stopping`);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const release = abortOnSignals(controller);
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    const { report, clean } = await bench(opts, controller.signal);
    process.stdout.write(report);
    return clean ? 0 : 1;
  } catch (err) {
    if (controller.signal.aborted) {
      say(`${(controller.signal.reason as Error).message}: stopped`);
      return 130;
    }
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    release();
  }
}

process.exitCode = await main(process.argv.slice(2));
