// npm run bench:raw-pairs -- --baseline DIR --candidate DIR [options]: how much slower is one installed server than
// another, measured with nothing but pairs of sysbench runs: no verdict, no stopping rule. It sizes a slowdown that
// qpswatch's sessions are then judged against (the demo upstream's drift series, docs/verdicts.md).
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.js';
import { InputError } from '../src/errors.js';
import { createLogger, resolveLogFormat } from '../src/log/index.js';
import { loadSuite, runArgv, runSysbench, type Suite, type SuiteTest } from '../src/suite/index.js';
import { BenchServer } from './bench/bench-server.js';
import { bootstrapInterval, medianPairRatio, type RunPair } from './bench/stats.js';

const log = createLogger('warn', resolveLogFormat('auto', process.env, process.stderr.isTTY));
const PROFILE = 'relaxed';

const HELP = `Usage: npm run bench:raw-pairs -- --baseline DIR --candidate DIR [options]

Starts two installed MariaDB servers side by side, each under a temp dir with the relaxed server profile (DIR is
an install prefix: /usr, or a build's install folder under the state dir's builds/), loads the suite's tables into
both, warms both up, then runs each test in pairs of runs, B then C or C then B in turn. Prints, per test, the median
of the pairs' C/B with its 95% bootstrap interval (pairs resampled whole), and the spread of the pairs. Nothing is
stored. Progress goes to stderr, the figures to stdout.

For the demo upstream's drift series: build the tags (qpswatch build mariadb-10.6.1 ...), then name two install
folders, e.g. the base's and the fourth tag's.

Options:
  --baseline DIR    install prefix of B
  --candidate DIR   install prefix of C
  --suite NAME      a suite of config/suites (default quick): its load, warm-up and tests
  --tests A,B       only these tests of the suite (default: all)
  --pairs N         pairs per test (default 30)
  --seconds N       length of each run (default: the test's)
  --help

Exit codes: 0 done; 1 could not run; 2 bad option; 130 interrupted.
`;

interface RawOptions {
  baseline: string;
  candidate: string;
  suite: string;
  tests?: string[];
  pairs: number;
  seconds?: number;
}

class RawUsageError extends InputError {}

function parseOptions(argv: readonly string[]): RawOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        baseline: { type: 'string' },
        candidate: { type: 'string' },
        suite: { type: 'string' },
        tests: { type: 'string' },
        pairs: { type: 'string' },
        seconds: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new RawUsageError(`${(err as Error).message}; see --help`);
  }
  if (values.help === true) return 'help';
  if (values.baseline === undefined || values.candidate === undefined)
    throw new RawUsageError('name both servers: --baseline DIR --candidate DIR (install prefixes); see --help');
  return {
    baseline: values.baseline,
    candidate: values.candidate,
    suite: values.suite ?? 'quick',
    ...(values.tests !== undefined
      ? {
          tests: values.tests
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
    pairs: whole('--pairs', values.pairs, 30, 2, 10_000),
    ...(values.seconds !== undefined ? { seconds: whole('--seconds', values.seconds, 1, 1, 3600) } : {}),
  };
}

function whole(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new RawUsageError(`${flag} ${JSON.stringify(text)}: expected a whole number from ${min} to ${max}`);
  return n;
}

function say(line: string): void {
  process.stderr.write(`[bench:raw-pairs] ${line}\n`);
}

/** One data set and one thread count per test: what a pair of plain runs can measure (no levels). */
function pickTests(suite: Suite, names: readonly string[] | undefined): readonly SuiteTest[] {
  if (suite.levels.length > 0)
    throw new RawUsageError(
      `--suite ${suite.name}: a suite with levels has several data sets; use a suite without levels`,
    );
  const many = suite.tests.find((t) => t.threads.length > 1);
  if (many !== undefined)
    throw new RawUsageError(
      `--suite ${suite.name}: test ${many.name} runs at ` +
        `${many.threads.join(', ')} threads; use a suite whose tests run at one ` +
        `thread count`,
    );
  if (names === undefined) return suite.tests;
  return names.map((name) => {
    const test = suite.tests.find((t) => t.name === name);
    if (test === undefined)
      throw new RawUsageError(
        `--tests: the ${suite.name} suite has no test ${JSON.stringify(name)}; ` +
          `use some of ${suite.tests.map((t) => t.name).join(', ')}`,
      );
    return test;
  });
}

/** Every test's pairs, sweep after sweep: a test's pairs are then spread over the whole run, as in a session. */
async function measurePairs(
  servers: { b: BenchServer; c: BenchServer },
  tests: readonly SuiteTest[],
  opts: RawOptions,
  signal: AbortSignal,
): Promise<Map<string, RunPair[]>> {
  const pairs = new Map<string, RunPair[]>(tests.map((t) => [t.name, []]));
  const qps = async (server: BenchServer, test: SuiteTest): Promise<number> => {
    signal.throwIfAborted();
    const seconds = opts.seconds ?? test.seconds;
    const result = await runSysbench(runArgv(test, test.threads[0]!, server.connection, seconds), {
      logFile: server.sysbenchLog,
      timeoutMs: seconds * 1000 + 120_000,
      signal,
      log,
    });
    return result.qps;
  };
  for (let sweep = 1; sweep <= opts.pairs; sweep++) {
    for (const test of tests) {
      const cFirst = (sweep + tests.indexOf(test)) % 2 === 0;
      const first = await qps(cFirst ? servers.c : servers.b, test);
      const second = await qps(cFirst ? servers.b : servers.c, test);
      const [b, c] = cFirst ? [second, first] : [first, second];
      pairs.get(test.name)!.push({ without: b, with: c });
    }
    say(
      `sweep ${sweep}/${opts.pairs}: ` +
        `${tests.map((t) => `${t.name} ${medianPairRatio(pairs.get(t.name)!).toFixed(3)}`).join(', ')}`,
    );
  }
  return pairs;
}

function report(pairs: ReadonlyMap<string, RunPair[]>, heading: string): string {
  const lines = [heading, '', "test                     pairs  median C/B  95% interval   pairs' C/B middle half"];
  const all: number[] = [];
  for (const [name, list] of pairs) {
    const ratio = medianPairRatio(list);
    const interval = bootstrapInterval(list, medianPairRatio);
    const ratios = list.map((p) => p.with / p.without).sort((a, b) => a - b);
    const q = (p: number): number => ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))]!;
    all.push(Math.log(ratio));
    lines.push(
      `${name.padEnd(24)} ${String(list.length).padStart(6)}  ` +
        `${ratio.toFixed(3).padStart(10)}  ` +
        `${interval.low.toFixed(3)}-${interval.high.toFixed(3)}    ` +
        `${q(0.25).toFixed(3)}-${q(0.75).toFixed(3)}`,
    );
  }
  const geo = Math.exp(all.reduce((a, b) => a + b, 0) / all.length);
  lines.push(
    '',
    `geometric mean of the tests' median C/B: ${geo.toFixed(3)} (${((1 - geo) * 100).toFixed(1)}% slower)`,
  );
  return lines.join('\n') + '\n';
}

async function bench(opts: RawOptions, signal: AbortSignal): Promise<{ text: string; clean: boolean }> {
  const suite = loadSuite(opts.suite, loadConfig({ env: {}, cwd: process.cwd() }).suites_dir);
  const tests = pickTests(suite, opts.tests);
  const servers: BenchServer[] = [];
  let text: string;
  let clean = false;
  try {
    const b = await BenchServer.create({ profile: PROFILE, basedir: opts.baseline, signal, say, log });
    servers.push(b);
    const c = await BenchServer.create({ profile: PROFILE, basedir: opts.candidate, signal, say, log });
    servers.push(c);
    await b.start(suite);
    await c.start(suite);
    await b.warmUp(suite);
    await c.warmUp(suite);
    const pairs = await measurePairs({ b, c }, tests, opts, signal);
    text = report(
      pairs,
      `bench:raw-pairs: C ${c.target.ref.version} (${opts.candidate}) against ` +
        `B ${b.target.ref.version} (${opts.baseline}), suite ${suite.name}, ` +
        `${opts.pairs} pairs per test; load average ${loadavg()[0]!.toFixed(2)} ` +
        `at the end`,
    );
  } finally {
    const closed = await Promise.all(servers.reverse().map((s) => s.close()));
    clean = !closed.includes(false);
    if (!clean) say('clean-up left something behind (see above)');
  }
  return { text, clean };
}

async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (!controller.signal.aborted) controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    const { text, clean } = await bench(opts, controller.signal);
    process.stdout.write(text);
    return clean ? 0 : 1;
  } catch (err) {
    if (controller.signal.aborted) return 130;
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

process.exitCode = await main(process.argv.slice(2));
