// npm run bench:aa -- [options]: the false-alarm rate of verdicts. Runs this host's MariaDB against itself: one
// session of --pool-rounds rounds gives 2 x pool-rounds independent runs of the same server; then --sessions
// sessions of the default size are drawn from that pool and judged as compare judges them. Every regression
// verdict among them is a false alarm. Prints how many sessions had any, and how long a default session takes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { judgeSession } from '../src/analysis/index.js';
import { loadConfig } from '../src/config/index.js';
import { createLogger, setRootLogger } from '../src/log/index.js';
import { runComparison } from '../src/pipeline/index.js';
import { defaultSqlitePath, openStore, type SampleRecord } from '../src/store/index.js';
import { loadSuite } from '../src/suite/index.js';

const HELP = `Usage: npm run bench:aa -- [--pool-rounds N] [--sessions N] [--rounds N] [--suite NAME] [--seed N]

Measures how often a session of one server against itself gets any regression verdict (the goal is none).
One session of --pool-rounds rounds (default 8) runs this host's MariaDB (profile relaxed) against itself: every
round gives two independent runs, each on a fresh copy of the loaded datadir. Then --sessions sessions (default 40)
of --rounds rounds each (default: the rounds option, 4) are drawn from those runs without reuse inside a session,
and judged with the default threshold and alpha. Progress goes to stderr, the figures to stdout.
`;

interface Options {
  poolRounds: number;
  sessions: number;
  rounds: number;
  suite: string;
  seed: number;
}

function parseOptions(argv: readonly string[], defaultRounds: number): Options | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'pool-rounds': { type: 'string' }, sessions: { type: 'string' }, rounds: { type: 'string' }, suite: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help === true) return 'help';
  const whole = (flag: string, text: string | undefined, fallback: number, min: number): number => {
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} ${JSON.stringify(text)}: expected a whole number of at least ${min}`);
    return n;
  };
  const rounds = whole('rounds', values.rounds, defaultRounds, 2);
  return {
    poolRounds: whole('pool-rounds', values['pool-rounds'], 8, rounds),
    sessions: whole('sessions', values.sessions, 40, 1),
    rounds,
    suite: values.suite ?? 'quick',
    seed: whole('seed', values.seed, 1, 0),
  };
}

/** One run of the pool: every sample of one (side, round) of the pool session. */
type PoolRun = SampleRecord[];

function poolRuns(samples: readonly SampleRecord[]): PoolRun[] {
  const runs = new Map<string, PoolRun>();
  for (const s of samples) runs.set(`${s.role}/${s.round}`, [...(runs.get(`${s.role}/${s.round}`) ?? []), s]);
  return [...runs.values()];
}

function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A session of `rounds` rounds drawn from the pool: 2 x rounds distinct runs, half labelled B, half C. */
function drawSession(runs: readonly PoolRun[], rounds: number, random: () => number): SampleRecord[] {
  const order = runs.map((run) => ({ run, key: random() })).sort((a, b) => a.key - b.key);
  const chosen = order.slice(0, 2 * rounds).map((o) => o.run);
  return chosen.flatMap((run, i) => run.map((s) => ({ ...s, role: i < rounds ? ('baseline' as const) : ('candidate' as const), round: (i % rounds) + 1 })));
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-aa-'));
  const env = { ...process.env, QPSWATCH_STATE_DIR: join(dir, 'state') };
  const config = loadConfig({ env, cwd: process.cwd() });
  const options = parseOptions(process.argv.slice(2), config.rounds);
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const log = createLogger('info', process.stderr.isTTY === true ? 'pretty' : 'json');
  setRootLogger(log);
  config.targets = { a: { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' } };
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('stopped by SIGINT')));
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(config.state_dir) });
  try {
    const suite = loadSuite(options.suite, config.suites_dir);
    const started = Date.now();
    const outcome = await runComparison({ baseline: 'a', candidate: 'a', suite, rounds: options.poolRounds }, { config, store, log, upstreams: [], signal: controller.signal });
    const poolSeconds = (Date.now() - started) / 1000;
    const runs = poolRuns(await store.completedSamples(outcome.sessionId));
    const random = seededRandom(options.seed);
    const settings = { threshold: config.threshold, testThresholds: config.test_thresholds, alpha: config.alpha };
    let alarmed = 0;
    let unstable = 0;
    const relatives: number[] = [];
    for (let i = 0; i < options.sessions; i++) {
      const verdicts = judgeSession(drawSession(runs, options.rounds, random), settings);
      if (verdicts.some((v) => v.kind === 'regression')) alarmed += 1;
      unstable += verdicts.filter((v) => v.kind === 'unstable').length;
      relatives.push(...verdicts.map((v) => v.relativeQps));
    }
    relatives.sort((a, b) => a - b);
    const perSession = (poolSeconds / (2 * options.poolRounds)) * 2 * options.rounds;
    process.stdout.write(
      [
        `pool: ${runs.length} runs of one server (${options.poolRounds} rounds of the ${options.suite} suite) in ${poolSeconds.toFixed(0)} s`,
        `sessions drawn: ${options.sessions} of ${options.rounds} rounds each, threshold ${settings.threshold}, alpha ${settings.alpha}`,
        `sessions with any regression verdict (false alarms): ${alarmed} of ${options.sessions}`,
        `unstable verdicts: ${unstable} of ${relatives.length} test verdicts`,
        `relative QPS of A against A: min ${relatives[0]?.toFixed(3)}, median ${relatives[Math.floor(relatives.length / 2)]?.toFixed(3)}, max ${relatives.at(-1)?.toFixed(3)}`,
        `time a default session takes (${options.rounds} rounds, from the pool's time per run): about ${(perSession / 60).toFixed(1)} min`,
        '',
      ].join('\n'),
    );
    return 0;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:aa: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
