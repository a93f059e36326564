// npm run bench:aa -- [options]: the false-alarm rate of verdicts. Runs this host's MariaDB against itself: one
// session of --pool-rounds rounds gives 2 x pool-rounds independent runs of the same server; then --sessions
// sessions of the default size are drawn from that pool and judged as compare judges them. Every regression
// verdict among them is a false alarm. Prints how many sessions had any, and how long a default session takes.
// --grid judges the same pool at other (rounds, alpha) settings too; --keep and --from keep a pool and judge it
// again later without running servers.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { judgeSession, type VerdictSettings } from '../src/analysis/index.js';
import { loadConfig } from '../src/config/index.js';
import { createLogger, setRootLogger } from '../src/log/index.js';
import { runComparison } from '../src/pipeline/index.js';
import { defaultSqlitePath, openStore, type SampleRecord, type Store } from '../src/store/index.js';
import { loadSuite } from '../src/suite/index.js';

const HELP = `Usage: npm run bench:aa -- [--pool-rounds N] [--sessions N] [--rounds N] [--suite NAME] [--seed N]
                          [--grid R:ALPHA,...] [--keep DIR | --from DIR]

Measures how often a session of one server against itself gets any regression verdict (the goal is none).
One session of --pool-rounds rounds (default 8) runs this host's MariaDB (profile relaxed) against itself: every
round gives two independent runs, each on a fresh copy of the loaded datadir. Then --sessions sessions (default 40)
of --rounds rounds each (default: the rounds option, 5) are drawn from those runs without reuse inside a session,
and judged with the default threshold and alpha. Progress goes to stderr, the figures to stdout.

  --grid 4:0.05,5:0.01   also judge the same pool at these settings (rounds:alpha, default threshold) and print
                         one table row each: false alarms, unstable verdicts, minutes a session of that size takes.
  --keep DIR             keep the pool's store in DIR (a new or empty folder) to judge it again later.
  --from DIR             judge the pool kept in DIR (its last done session) again; no server is run.
`;

interface GridPoint {
  rounds: number;
  alpha: number;
}

interface Options {
  poolRounds: number;
  sessions: number;
  rounds: number;
  suite: string;
  seed: number;
  grid: GridPoint[];
  keep: string | undefined;
  from: string | undefined;
}

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} ${JSON.stringify(text)}: expected a whole number of at least ${min}`);
  return n;
}

function parseGrid(text: string | undefined): GridPoint[] {
  if (text === undefined) return [];
  return text.split(',').map((item) => {
    const [r, a, ...rest] = item.split(':');
    const rounds = Number(r);
    const alpha = Number(a);
    if (rest.length > 0 || !Number.isInteger(rounds) || rounds < 2 || !(alpha > 0 && alpha < 1)) {
      throw new Error(`--grid ${JSON.stringify(item)}: expected ROUNDS:ALPHA with whole ROUNDS >= 2 and 0 < ALPHA < 1, e.g. 5:0.01`);
    }
    return { rounds, alpha };
  });
}

function parseOptions(argv: readonly string[], defaultRounds: number): Options | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'pool-rounds': { type: 'string' },
      sessions: { type: 'string' },
      rounds: { type: 'string' },
      suite: { type: 'string' },
      seed: { type: 'string' },
      grid: { type: 'string' },
      keep: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) return 'help';
  if (values.keep !== undefined && values.from !== undefined) throw new Error('--keep and --from exclude each other: --from judges a kept pool, it runs none to keep');
  const rounds = whole('rounds', values.rounds, defaultRounds, 2);
  return {
    poolRounds: whole('pool-rounds', values['pool-rounds'], 8, rounds),
    sessions: whole('sessions', values.sessions, 40, 1),
    rounds,
    suite: values.suite ?? 'quick',
    seed: whole('seed', values.seed, 1, 0),
    grid: parseGrid(values.grid),
    keep: values.keep === undefined ? undefined : resolve(values.keep),
    from: values.from === undefined ? undefined : resolve(values.from),
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

/** A pool: its runs, and what it took to make them. */
interface Pool {
  runs: PoolRun[];
  rounds: number;
  suite: string;
  seconds: number;
}

interface Judged {
  alarmed: number;
  unstable: number;
  relatives: number[];
}

/**
 * Judges `sessions` sessions of `rounds` rounds drawn from the pool. Every setting starts from the same seed, so
 * settings with the same rounds judge the very same sessions and differ only by their alpha.
 */
function judgeDraws(pool: Pool, rounds: number, sessions: number, seed: number, settings: VerdictSettings): Judged {
  const random = seededRandom(seed);
  const judged: Judged = { alarmed: 0, unstable: 0, relatives: [] };
  for (let i = 0; i < sessions; i++) {
    const verdicts = judgeSession(drawSession(pool.runs, rounds, random), settings);
    if (verdicts.some((v) => v.kind === 'regression')) judged.alarmed += 1;
    judged.unstable += verdicts.filter((v) => v.kind === 'unstable').length;
    judged.relatives.push(...verdicts.map((v) => v.relativeQps));
  }
  judged.relatives.sort((a, b) => a - b);
  return judged;
}

/** Minutes a session of `rounds` rounds takes, from the pool's time per run (a round is two runs). */
function sessionMinutes(pool: Pool, rounds: number): number {
  return (pool.seconds / pool.runs.length) * 2 * rounds / 60;
}

/** 1 / C(2R, R): the smallest p-value the randomization test can give at R rounds. */
function smallestP(rounds: number): number {
  let c = 1;
  for (let k = 1; k <= rounds; k++) c = (c * (rounds + k)) / k;
  return 1 / Math.round(c);
}

function defaultReport(pool: Pool, options: Options, settings: VerdictSettings): string[] {
  const j = judgeDraws(pool, options.rounds, options.sessions, options.seed, settings);
  const r = j.relatives;
  return [
    `pool: ${pool.runs.length} runs of one server (${pool.rounds} rounds of the ${pool.suite} suite) in ${pool.seconds.toFixed(0)} s`,
    `sessions drawn: ${options.sessions} of ${options.rounds} rounds each, threshold ${settings.threshold}, alpha ${settings.alpha}`,
    `sessions with any regression verdict (false alarms): ${j.alarmed} of ${options.sessions}`,
    `unstable verdicts: ${j.unstable} of ${r.length} test verdicts`,
    `relative QPS of A against A: min ${r[0]?.toFixed(3)}, median ${r[Math.floor(r.length / 2)]?.toFixed(3)}, max ${r.at(-1)?.toFixed(3)}`,
    `time a default session takes (${options.rounds} rounds, from the pool's time per run): about ${sessionMinutes(pool, options.rounds).toFixed(1)} min`,
  ];
}

function gridReport(pool: Pool, options: Options, settings: VerdictSettings): string[] {
  if (options.grid.length === 0) return [];
  const header = ['rounds', 'alpha', 'smallest p', 'false alarms', 'unstable verdicts', 'session min'];
  const fits = options.grid.filter((g) => 2 * g.rounds <= pool.runs.length);
  const rows = fits.map((g) => {
    const j = judgeDraws(pool, g.rounds, options.sessions, options.seed, { ...settings, alpha: g.alpha });
    return [String(g.rounds), String(g.alpha), `1/${Math.round(1 / smallestP(g.rounds))}`, `${j.alarmed} of ${options.sessions}`, `${j.unstable} of ${j.relatives.length}`, sessionMinutes(pool, g.rounds).toFixed(1)];
  });
  const skipped = options.grid.filter((g) => !fits.includes(g)).map((g) => `${g.rounds}:${g.alpha} skipped: a session of ${g.rounds} rounds needs ${2 * g.rounds} runs, the pool has ${pool.runs.length}`);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return ['', `grid (same pool, ${options.sessions} sessions per row, threshold ${settings.threshold}, seed ${options.seed}):`, line(header), ...rows.map(line), ...skipped];
}

async function runPool(options: Options, stateDir: string, store: Store): Promise<Pool> {
  const env = { ...process.env, QPSWATCH_STATE_DIR: stateDir };
  const config = loadConfig({ env, cwd: process.cwd() });
  const log = createLogger('info', process.stderr.isTTY === true ? 'pretty' : 'json');
  setRootLogger(log);
  config.targets = { a: { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' } };
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('stopped by SIGINT')));
  const suite = loadSuite(options.suite, config.suites_dir);
  const started = Date.now();
  const outcome = await runComparison({ baseline: 'a', candidate: 'a', suite, rounds: options.poolRounds }, { config, store, log, upstreams: [], signal: controller.signal });
  const seconds = (Date.now() - started) / 1000;
  return { runs: poolRuns(await store.completedSamples(outcome.sessionId)), rounds: options.poolRounds, suite: options.suite, seconds };
}

/** The kept pool: the newest done session of the store in `dir`; its time is the session's own start to end. */
async function keptPool(dir: string, store: Store): Promise<Pool> {
  const [session] = await store.listSessions({ limit: 1, state: 'done' });
  if (session === undefined) throw new Error(`--from ${JSON.stringify(dir)}: the store there has no finished session; keep a pool first with --keep ${dir}`);
  const seconds = (Date.parse(session.endedAt ?? session.startedAt) - Date.parse(session.startedAt)) / 1000;
  return { runs: poolRuns(await store.completedSamples(session.id)), rounds: session.rounds, suite: session.suite, seconds };
}

function stateDirFor(options: Options): string {
  if (options.from !== undefined) {
    if (!existsSync(defaultSqlitePath(options.from))) throw new Error(`--from ${JSON.stringify(options.from)}: no qpswatch.sqlite there; give the folder passed to --keep`);
    return options.from;
  }
  if (options.keep === undefined) return join(mkdtempSync(join(tmpdir(), 'qpswatch-aa-')), 'state');
  if (existsSync(options.keep) && readdirSync(options.keep).length > 0) throw new Error(`--keep ${JSON.stringify(options.keep)}: the folder is not empty; give a new or empty folder so no pool is mixed with another`);
  mkdirSync(options.keep, { recursive: true });
  return options.keep;
}

/** What is left after the figures: a kept pool keeps only its store, a throwaway pool nothing. */
function cleanUp(options: Options, stateDir: string): void {
  if (options.from !== undefined) return;
  if (options.keep === undefined) {
    rmSync(join(stateDir, '..'), { recursive: true, force: true });
    return;
  }
  for (const dir of ['work', 'run']) rmSync(join(stateDir, dir), { recursive: true, force: true });
}

async function main(): Promise<number> {
  const defaults = loadConfig({ env: { ...process.env, QPSWATCH_STATE_DIR: tmpdir() }, cwd: process.cwd() });
  const options = parseOptions(process.argv.slice(2), defaults.rounds);
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const stateDir = stateDirFor(options);
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const pool = options.from === undefined ? await runPool(options, stateDir, store) : await keptPool(options.from, store);
      if (2 * options.rounds > pool.runs.length) throw new Error(`--rounds ${options.rounds}: the pool has ${pool.runs.length} runs, a session needs ${2 * options.rounds}`);
      const settings: VerdictSettings = { threshold: defaults.threshold, testThresholds: defaults.test_thresholds, alpha: defaults.alpha };
      process.stdout.write([...defaultReport(pool, options, settings), ...gridReport(pool, options, settings), ''].join('\n'));
      if (options.keep !== undefined) process.stdout.write(`pool kept in ${options.keep}: judge it again with --from ${options.keep}\n`);
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(options, stateDir);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:aa: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
