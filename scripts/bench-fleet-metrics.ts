// npm run bench:fleet-metrics -- [options]: how fast `qpswatch metrics` answers over a fleet's store. Fills a temp
// SQLite store with 100,000 samples of two hosts, starts the real command on it, and times /metrics.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { median } from '../src/analysis/index.js';
import { InputError } from '../src/errors.js';
import { defaultEnv, start } from '../src/exec/index.js';
import { projectRoot } from '../src/paths.js';
import { freePort, waitForHealthz } from './bench/daemon-idle.js';
import { BENCH_TESTS, BENCH_UPSTREAM_CONFIGS, fillStore } from './bench/daemon-store.js';

const HELP = `Usage: npm run bench:fleet-metrics -- [--samples N] [--scrapes N] [--dir DIR]

Fills a temp SQLite store through the Store API (one transaction per sample, as sessions write them) with
--samples samples (default 100000) of two hosts (2 series x 20 versions x ${BENCH_TESTS.length} tests, 5-round
sessions, the sweeps of version pairs taking turns between the hosts, each host with its checks), then starts
\`node bin/qpswatch.js metrics --listen 127.0.0.1:PORT\` on it (the built CLI: npm run build), scrapes /metrics
once to warm up, then --scrapes more times (default 50), and prints the median and p95 latency. Target: median
under 200 ms (issue 22). The store goes under /dev/shm when there is one (--dir to choose).
Progress goes to stderr, the figures to stdout.
`;

const TARGET_MEDIAN_MS = 200;

interface Options {
  samples: number;
  scrapes: number;
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

async function fill(dir: string, samples: number): Promise<{ lines: string[]; config: string }> {
  mkdirSync(join(dir, 'state'));
  say(`filling a store with ${samples} samples of 2 hosts under ${dir}`);
  const begin = performance.now();
  const filled = await fillStore(join(dir, 'state', 'qpswatch.sqlite'), samples, 2);
  await filled.store.close();
  const seconds = (performance.now() - begin) / 1000;
  const config = join(dir, 'qpswatch.yaml');
  const upstreams = BENCH_UPSTREAM_CONFIGS.map((u) => `  - ${JSON.stringify(u)}`);
  const state = JSON.stringify(join(dir, 'state'));
  writeFileSync(config, [`state_dir: ${state}`, 'log_level: warn', 'upstreams:', ...upstreams, ''].join('\n'));
  return {
    config,
    lines: [
      `store: ${filled.samples} samples, ${filled.sessions} done sessions, ${filled.checks} checks, 2 hosts ` +
        `(written through the Store API in ${seconds.toFixed(1)} s)`,
    ],
  };
}

async function scrapeFleet(config: string, scrapes: number): Promise<string[]> {
  const port = await freePort();
  const argv = [process.execPath, join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'metrics'];
  const listen = `127.0.0.1:${port}`;
  const server = start({
    argv: [...argv, '--listen', listen],
    cwd: projectRoot,
    env: defaultEnv(),
    timeoutMs: 3_600_000,
  });
  try {
    await waitForHealthz(`http://${listen}/healthz`, server);
    const url = `http://${listen}/metrics`;
    const first = await timedScrape(url);
    const times: number[] = [];
    let text = first.text;
    for (let i = 0; i < scrapes; i++) {
      const scrape = await timedScrape(url);
      times.push(scrape.ms);
      text = scrape.text;
    }
    const samples = text.split('\n').filter((l) => l.startsWith('qpswatch_'));
    const hosts = new Set(samples.flatMap((l) => /host="([^"]+)"/.exec(l)?.[1] ?? []));
    const mid = median(times);
    return [
      `command: node bin/qpswatch.js --config ${config} metrics --listen ${listen}`,
      `warm-up scrape: ${ms(first.ms)} (the command warms its cache at start; this may wait for it)`,
      `next ${scrapes} scrapes: median ${ms(mid)}, p95 ${ms(percentile(times, 0.95))}, max ${ms(Math.max(...times))}` +
        `   [target median < ${TARGET_MEDIAN_MS} ms: ${mid < TARGET_MEDIAN_MS ? 'met' : 'MISSED'}]`,
      `served: ${samples.length} qpswatch_* samples of ${hosts.size} hosts (${[...hosts].join(', ')}), ` +
        `${(text.length / 1024).toFixed(0)} KiB per scrape`,
    ];
  } finally {
    const end = await server.stop(15_000);
    say(`qpswatch metrics stopped (exit ${end.exitCode ?? end.signal})`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let dir: string | undefined;
  try {
    const opts = parseOptions(argv);
    if (opts === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    dir = mkdtempSync(join(opts.dir ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir()), 'qpswatch-bench-fleet-'));
    const { lines, config } = await fill(dir, opts.samples);
    const figures = await scrapeFleet(config, opts.scrapes);
    process.stdout.write(`bench:fleet-metrics\n${[...lines, ...figures].map((l) => `  ${l}`).join('\n')}\n`);
    return 0;
  } catch (err) {
    say(err instanceof Error ? err.message : String(err));
    return err instanceof InputError ? 2 : 1;
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
