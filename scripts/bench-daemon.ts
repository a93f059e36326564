// npm run bench:daemon -- [options]: what the daemon costs. Part 1 fills a temp store with 100,000 samples and times
// /metrics served from it; part 2 starts the real daemon (if the built CLI has it) and watches its idle RSS and CPU.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median } from '../src/analysis/index.js';
import { InputError } from '../src/errors.js';
import { createLogger, resolveLogFormat } from '../src/log/index.js';
import { startMetricsServer, type DaemonStatus, type MetricsServer } from '../src/metrics/index.js';
import { storeMetricsSource } from '../src/views/index.js';
import { BENCH_TESTS, BENCH_UPSTREAMS, fillStore } from './bench/daemon-store.js';
import { daemonAvailable, measureFloor, measureIdleDaemon } from './bench/daemon-idle.js';
import { benchWorkDir } from './bench/work-dir.js';

/** The metrics server logs here (warnings only): stdout is the report. */
const log = createLogger('warn', resolveLogFormat('auto', process.env, process.stderr.isTTY));

const HELP = `Usage: npm run bench:daemon -- [--samples N] [--scrapes N] [--idle-seconds N] [--settle-seconds N]
                                [--dir DIR] [--no-daemon]

Part 1: fills a temp SQLite store through the Store API with --samples samples (default 100000: 2 series x 20
versions x ${BENCH_TESTS.length} tests, 5-round sessions of consecutive versions, one check per pair), starts the
metrics server on 127.0.0.1:0 with the real metrics source over it, and times the first /metrics scrape and then
--scrapes more (default 50): median and p95, the series served and this process's RSS.
Part 2: when the built CLI (dist/, npm run build) has the daemon command, starts \`node bin/qpswatch.js daemon\`
on an empty temp state dir with a far-away schedule and a free metrics port, waits for /healthz, lets start-up
settle for --settle-seconds (default 30: the catch-up poll, and V8's memory reducer collecting the start-up garbage
about 8 to 20 s in), then samples its RSS (/proc/PID/status VmRSS) and CPU (/proc/PID/stat utime+stime) over
--idle-seconds (default 60). The CPU of start-up, from exec to the window, is printed apart. Beside it, after the
same settle, the floor: the RSS of a bare Node process and of one that loads only the libraries an idle daemon loads
and does what it does with them (scripts/bench/floor-process.ts), so qpswatch's own share is the difference.

The store goes under /dev/shm when there is one (--dir to choose): the store syncs every commit, and the fill is
not what is measured. Progress goes to stderr, the figures to stdout.
`;

interface Options {
  samples: number;
  scrapes: number;
  idleSeconds: number;
  settleSeconds: number;
  dir: string | undefined;
  daemon: boolean;
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
        'idle-seconds': { type: 'string' },
        'settle-seconds': { type: 'string' },
        dir: { type: 'string' },
        'no-daemon': { type: 'boolean' },
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
    samples: whole('--samples', values.samples, 100_000, 160, 10_000_000),
    scrapes: whole('--scrapes', values.scrapes, 50, 2, 10_000),
    idleSeconds: whole('--idle-seconds', values['idle-seconds'], 60, 1, 3600),
    settleSeconds: whole('--settle-seconds', values['settle-seconds'], 30, 0, 3600),
    dir: values.dir,
    daemon: values['no-daemon'] !== true,
  };
}

function say(line: string): void {
  process.stderr.write(`[bench:daemon] ${line}\n`);
}

/** Issue 12's footprint targets: printed beside each figure with the ratio, never asserted (the host is shared). */
const TARGETS = { firstScrapeMs: 500, medianScrapeMs: 50, rssMiB: 64, idleCpuPercent: 0.1 };
const target = (value: number, limit: number, unit: string): string =>
  `   [target <= ${limit} ${unit}: ${(value / limit).toFixed(2)}x]`;

const ms = (x: number): string => `${x.toFixed(1)} ms`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function timedScrape(server: MetricsServer): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const res = await fetch(`${server.url}/metrics`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${text.trim()}`);
  return { ms: performance.now() - start, text };
}

const STATUS: DaemonStatus = {
  phase: 'idle',
  queue: {},
  lastPollSeconds: null,
  pollIntervalSeconds: 3600,
  quietHostWaitSeconds: 0,
};

async function scrapePart(dir: string, opts: Options): Promise<string[]> {
  say(`filling a store with ${opts.samples} samples under ${dir} (one transaction per sample, as sessions write them)`);
  const fillStart = performance.now();
  const filled = await fillStore(join(dir, 'qpswatch.sqlite'), opts.samples);
  const fillSeconds = (performance.now() - fillStart) / 1000;
  say(`filled in ${fillSeconds.toFixed(1)} s`);
  const source = storeMetricsSource(filled.store, BENCH_UPSTREAMS, {
    versionsPerSeries: 20,
    thresholds: { threshold: 0.95, testThresholds: {} },
    build: { version: 'bench' },
    status: () => STATUS,
  });
  const server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    source,
    log: log.child({ component: 'metrics' }),
  });
  try {
    // The bench's own client first: Node compiles its fetch (undici) on first use, tens of ms that are not the
    // server's.
    await (await fetch(`${server.url}/healthz`)).text();
    const first = await timedScrape(server);
    const times: number[] = [];
    let text = first.text;
    for (let i = 0; i < opts.scrapes; i++) {
      const scrape = await timedScrape(server);
      times.push(scrape.ms);
      text = scrape.text;
    }
    const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    return [
      `bench:daemon part 1: /metrics over a store of ${filled.samples} ` +
        `samples (${filled.sessions} done sessions, ${filled.checks} checks; ` +
        `${BENCH_UPSTREAMS.length} series x 20 versions x ${BENCH_TESTS.length} ` +
        `tests), SQLite in ${dir}`,
      `  store filled in ${fillSeconds.toFixed(1)} s ` +
        `(${((fillSeconds * 1e6) / filled.samples).toFixed(0)} µs per sample)`,
      `  first scrape:        ${ms(first.ms)} (reads each done session's ` +
        `samples once for the p95 ` +
        `latency)${target(first.ms, TARGETS.firstScrapeMs, 'ms')}`,
      `  next ${opts.scrapes} scrapes:    median ${ms(median(times))}, p95 ` +
        `${ms(percentile(times, 0.95))}, max ` +
        `${ms(Math.max(...times))}${target(median(times), TARGETS.medianScrapeMs, 'ms')}`,
      `  series served:       ${lines.length} ` +
        `(${lines.filter((l) => l.startsWith('qpswatch_')).length} qpswatch_*), ` +
        `${(text.length / 1024).toFixed(0)} KiB per scrape`,
      `  this process's RSS:  ${mb(process.memoryUsage().rss)} after the ` +
        `scrapes (store, server and bench in one process)`,
    ];
  } finally {
    await server.close();
    await filled.store.close();
  }
}

async function daemonPart(dir: string, opts: Options): Promise<string[]> {
  if (!opts.daemon) return ['bench:daemon part 2: skipped (--no-daemon)'];
  if (!(await daemonAvailable()))
    return [
      'bench:daemon part 2: the built CLI (dist/src/cli/run.js) has no daemon ' +
        'command yet: run npm run build once it has',
    ];
  // The floor settles while the daemon does, so both are measured side by side on the same host.
  const [f, floor] = await Promise.all([
    measureIdleDaemon(dir, opts.idleSeconds, opts.settleSeconds, say),
    measureFloor(opts.settleSeconds, say),
  ]);
  return [
    `bench:daemon part 2: node bin/qpswatch.js daemon, empty store, one ` +
      `upstream without tags, schedule far away, metrics on ` +
      `127.0.0.1:${f.port}`,
    `  up (answering /healthz) in ${f.startMs} ms; start-up used ` +
      `${f.startUpCpuSeconds.toFixed(2)} s of CPU until the window opened ` +
      `${f.settleSeconds} s later`,
    `  idle RSS over ${f.seconds} s: median ${mb(f.rssBytes.median)}, max ` +
      `${mb(f.rssBytes.max)} (first ${mb(f.rssBytes.first)}, last ` +
      `${mb(f.rssBytes.last)})${target(f.rssBytes.max / 2 ** 20, TARGETS.rssMiB, 'MiB')}`,
    `  floor after the same settle: bare Node ${mb(floor.bareBytes)}; Node ` +
      `with the libraries an idle daemon loads (zod, yaml, pino, ` +
      `better-sqlite3, node-cron with a time zone, prom-client, an HTTP ` +
      `server) ` +
      `${mb(floor.librariesBytes)}${target(floor.librariesBytes / 2 ** 20, TARGETS.rssMiB, 'MiB')}`,
    `  qpswatch's own share: ${mb(f.rssBytes.median - floor.librariesBytes)} above that floor`,
    `  idle CPU over ${f.seconds} s: ${f.cpuSeconds.toFixed(2)} s ` +
      `(${((f.cpuSeconds / f.seconds) * 100).toFixed(2)} % of one ` +
      `CPU)${target((f.cpuSeconds / f.seconds) * 100, TARGETS.idleCpuPercent, '%')}`,
  ];
}

async function main(argv: readonly string[]): Promise<number> {
  let dir: string | undefined;
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    dir = benchWorkDir(opts.dir, 'qpswatch-bench-daemon-');
    // Part 1's figures are printed before part 2 starts, so a daemon that fails to start does not lose them.
    process.stdout.write(`${(await scrapePart(dir, opts)).join('\n')}\n`);
    process.stdout.write(`${(await daemonPart(dir, opts)).join('\n')}\n`);
    return 0;
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
