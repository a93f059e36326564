// npm run bench:sim -- [options]: the verdict rule's error rates and power, from thousands of independent simulated
// sessions built on a real pool of this host's pairs (see --help). Figures go to stdout, progress to stderr.
import { parseArgs } from 'node:util';
import type { PairedJudgement } from '../src/analysis/index.js';
import { loadSuite } from '../src/suite/index.js';
import { openStore, defaultSqlitePath } from '../src/store/index.js';
import { cleanUp, defaultConfig, keptPool, poolDirs, runPool, stateDirFor } from './bench/pool-store.js';
import { keyLabel, seededRandom, type PairPool } from './bench/paired-pool.js';
import { poolModel, simulateSession, type PoolModel, type SessionShape } from './bench/sim-session.js';
import { upperBound95 } from './bench/binomial.js';
import { simulateSeries, type DriftOutcome } from './bench/sim-drift.js';

const HELP = `Usage: npm run bench:sim -- [--from DIR | --keep DIR] [--pool-pairs N] [--suite NAME]
                           [--null-sessions N] [--sessions N] [--seed N]

Validates the paired verdict rule at the default settings (threshold, alpha, confidence, max_pairs) on
sessions simulated from a real pool of this host's pairs. The pool is one paired session of this host's
MariaDB against itself, every test in every sweep (--pool-pairs sweeps, default 40), or a pool kept
earlier by bench:aa or bench:sim with --keep DIR (--from DIR judges it again; no server is run).

Each simulated session is independent: every sweep draws a pool sweep at random, and gives each test that
sweep's residual (its log ratio less the test's pool mean and order effect), with one random sign for the
whole sweep (so the tests of a sweep keep what they share), plus the test's order effect in this session's
order (B C, C B, ... as a real session alternates), plus the true drop of the scenario. The real rule
(replayLooks, what a session runs) judges it within the budget. Scenarios:

  null        no drop anywhere: the family-wise false-alarm rate (any regression in a session)
  margin      every test at the threshold's drop: how often a test is called ok (false ok)
  power       every test 2, 5, 10 or 20% slower: how often each test is called a regression
  ratchet     one test 7% slower, the others not: how often the release would become last good
              (every test ok or improvement)
  drift       series of 6 releases, each 3% slower than the one before in every test, checked as the
              daemon checks them (against the last good; last good only from a decided check; a
              confirming session against the base when the chain falls under the threshold): by which
              release each test is flagged as a confirmed drift, or at all (its own regression counts)

Rates come with their one-sided 95% upper bound (Clopper-Pearson). Each scenario runs at the suite's budget
and, where the budget matters, at a budget long enough to reach max_pairs (the worst case for false ok and
for the ratchet, since ok needs pairs).

  --null-sessions N   sessions of the null scenario (default 10000)
  --sessions N        sessions of every other scenario and budget (default 2000)
  --series N          series of the drift scenario (default 500)
  --seed N            the first seed; each scenario and budget gets its own stream (default 1)
`;

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag} ${JSON.stringify(text)}: expected a whole number of at least ${min}`);
  return n;
}

const pct = (x: number): string => `${(100 * x).toFixed(2)}%`;
const rate = (k: number, n: number): string =>
  `${pct(k / n)} (${k} of ${n}; 95% upper bound ${pct(upperBound95(k, n))})`;

interface Scenario {
  shape: SessionShape;
  sessions: number;
  seed: number;
  /** The true drop of each test (0.05 = 5% slower) in session number i. */
  drops(i: number, random: () => number): number[];
}

function run(model: PoolModel, scenario: Scenario, label: string): PairedJudgement[][] {
  const random = seededRandom(scenario.seed);
  const all: PairedJudgement[][] = [];
  const started = Date.now();
  for (let i = 0; i < scenario.sessions; i++) {
    all.push(simulateSession(model, scenario.shape, scenario.drops(i, random), random));
    if ((i + 1) % 500 === 0)
      process.stderr.write(
        `bench:sim: ${label}: ${i + 1} of ${scenario.sessions} sessions, ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
  }
  return all;
}

function describeShape(shape: SessionShape): string {
  return (
    `${shape.sweeps} sweeps (${shape.budgetMinutes.toFixed(1)} min of pairs ` +
    `at ${shape.sweepSeconds.toFixed(1)} s a sweep)`
  );
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      'pool-pairs': { type: 'string' },
      suite: { type: 'string' },
      'null-sessions': { type: 'string' },
      series: { type: 'string' },
      sessions: { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const defaults = defaultConfig();
  const dirs = poolDirs(values.keep, values.from);
  const nullSessions = whole('null-sessions', values['null-sessions'], 10_000, 1);
  const sessions = whole('sessions', values.sessions, 2000, 1);
  const series = whole('series', values.series, 500, 1);
  const seed = whole('seed', values.seed, 1, 0);
  const stateDir = stateDirFor(dirs, 'sim');
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const pool =
        dirs.from === undefined
          ? await runPool(stateDir, store, values.suite ?? 'quick', whole('pool-pairs', values['pool-pairs'], 40, 8))
          : await keptPool(store);
      const budget = loadSuite(pool.suite, defaults.suites_dir).budgetMinutes;
      const lines = simulate(pool, {
        budget,
        seed,
        nullSessions,
        sessions,
        series,
        threshold: defaults.threshold,
        alpha: defaults.alpha,
        confidence: defaults.confidence,
        maxPairs: defaults.max_pairs,
      });
      process.stdout.write([...lines, ''].join('\n'));
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(dirs, stateDir);
  }
}

interface SimSettings {
  budget: number;
  seed: number;
  nullSessions: number;
  sessions: number;
  series: number;
  threshold: number;
  alpha: number;
  confidence: number;
  maxPairs: number;
}

function simulate(pool: PairPool, s: SimSettings): string[] {
  const settings = { alpha: s.alpha, confidence: s.confidence, maxPairs: s.maxPairs, thresholdOf: () => s.threshold };
  const model = poolModel(pool, settings);
  const quick = model.shape(s.budget);
  const long = model.shape(Number.POSITIVE_INFINITY);
  const tests = model.keys.length;
  const same = (drop: number) => () => new Array<number>(tests).fill(drop);
  const out: string[] = [
    `pool: ${pool.sweeps.length} sweeps of the ${pool.suite} suite, ${tests} ` +
      `tests (${model.keys.map(keyLabel).join(', ')}); pair noise ` +
      `${model.noise.map((n) => pct(n)).join(', ')}`,
    `order effect (second run over first) in the pool: ` +
      `${model.orderEffects.map((o) => pct(Math.exp(o) - 1)).join(', ')}`,
    `settings: threshold ${s.threshold}, alpha ${s.alpha}, confidence ` +
      `${s.confidence}, max_pairs ${s.maxPairs}; budget ${s.budget} min: ` +
      `${describeShape(quick)}; long: ${describeShape(long)}`,
    `command: npm run bench:sim -- --null-sessions ${s.nullSessions} ` +
      `--sessions ${s.sessions} --series ${s.series} --seed ${s.seed}`,
    '',
  ];
  const regressed = (v: readonly PairedJudgement[]): boolean => v.some((j) => j.kind === 'regression');
  const nullRuns = run(model, { shape: quick, sessions: s.nullSessions, seed: s.seed, drops: same(0) }, 'null');
  out.push(
    `null (no drop), ${s.budget}-min budget, ${s.nullSessions} sessions: ` +
      `sessions with any regression (family-wise false alarms): ` +
      `${rate(nullRuns.filter(regressed).length, s.nullSessions)}; target at ` +
      `most alpha ${s.alpha}`,
  );
  const nullLong = run(model, { shape: long, sessions: s.sessions, seed: s.seed + 1, drops: same(0) }, 'null, long');
  out.push(
    `null (no drop), up to ${long.sweeps} pairs, ${s.sessions} sessions: ` +
      `family-wise false alarms ` +
      `${rate(nullLong.filter(regressed).length, s.sessions)}`,
  );

  const margin = 1 - s.threshold;
  for (const [shape, label, seedOffset] of [
    [quick, `${s.budget}-min budget`, 2],
    [long, `up to ${long.sweeps} pairs`, 3],
  ] as const) {
    const runs = run(
      model,
      { shape, sessions: s.sessions, seed: s.seed + seedOffset, drops: same(margin) },
      `margin, ${label}`,
    );
    const oks = runs.flat().filter((j) => j.kind === 'ok').length;
    out.push(
      `margin (every test ${pct(margin)} slower), ${label}, ${s.sessions} ` +
        `sessions: false ok per test ${rate(oks, runs.flat().length)}; target ` +
        `at most ${pct((1 - s.confidence) / 2)}`,
    );
  }

  for (const drop of [0.02, 0.05, 0.1, 0.2]) {
    const runs = run(
      model,
      { shape: quick, sessions: s.sessions, seed: s.seed + 10 + Math.round(drop * 100), drops: same(drop) },
      `power ${drop}`,
    );
    const perTest = model.keys.map((_, j) => runs.filter((v) => v[j]!.kind === 'regression').length);
    out.push(
      `power at -${pct(drop)}, ${s.budget}-min budget, ${s.sessions} ` +
        `sessions: ` +
        `${perTest.map((k, j) => `${keyLabel(model.keys[j]!)} ${pct(k / s.sessions)}`).join(', ')}`,
    );
  }
  out.push(...powerBudget(model, s, 0.1));

  for (const [shape, label, seedOffset] of [
    [quick, `${s.budget}-min budget`, 40],
    [long, `up to ${long.sweeps} pairs`, 41],
  ] as const) {
    const runs = run(
      model,
      {
        shape,
        sessions: s.sessions,
        seed: s.seed + seedOffset,
        drops: (_, random) => oneTestDropped(tests, 0.07, random),
      },
      `ratchet, ${label}`,
    );
    const madeGood = runs.filter((v) => v.every((j) => j.kind === 'ok' || j.kind === 'improvement')).length;
    out.push(
      `ratchet (one test 7% slower), ${label}, ${s.sessions} checks: made ` +
        `last good ${rate(madeGood, s.sessions)}; target under 1%`,
    );
  }
  out.push(...driftFigures(model, quick, s));
  return out;
}

/** The drift scenario: series of 6 releases at 3% per release, each checked within the suite's budget. */
function driftFigures(model: PoolModel, shape: SessionShape, s: SimSettings): string[] {
  const random = seededRandom(s.seed + 200);
  const outcomes: DriftOutcome[] = [];
  const started = Date.now();
  for (let i = 0; i < s.series; i++) {
    outcomes.push(simulateSeries(model, shape, 0.03, 6, s.threshold, s.confidence, random));
    if ((i + 1) % 100 === 0)
      process.stderr.write(
        `bench:sim: drift: ${i + 1} of ${s.series} series, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
  }
  const byFourth = (at: number | undefined): boolean => at !== undefined && at <= 4;
  const tests = model.keys.length;
  const drift = outcomes.reduce((a, o) => a + o.driftAt.filter(byFourth).length, 0);
  const flagged = outcomes.reduce((a, o) => a + o.flaggedAt.filter(byFourth).length, 0);
  const anyDrift = outcomes.filter((o) => o.driftAt.some(byFourth)).length;
  const anyFlagged = outcomes.filter((o) => o.flaggedAt.some(byFourth)).length;
  const when = [1, 2, 3, 4, 5, 6].map(
    (r) =>
      `${r}: ${pct(outcomes.reduce((a, o) => a + o.driftAt.filter((at) => at === r).length, 0) / (tests * s.series))}`,
  );
  return [
    `drift (3% slower per release, 6 releases), ${s.budget}-min budget, ` +
      `${s.series} series: tests flagged as a confirmed drift by the 4th ` +
      `release ${rate(drift, tests * s.series)}; target at least 80%`,
    `drift: series with any test confirmed by the 4th release ` +
      `${rate(anyDrift, s.series)}; flagged at all by the 4th (own regression ` +
      `or drift): tests ${rate(flagged, tests * s.series)}, series with any ` +
      `test ${rate(anyFlagged, s.series)}; first confirmed at release ` +
      `${when.join(', ')}`,
  ];
}

function oneTestDropped(tests: number, drop: number, random: () => number): number[] {
  const which = Math.floor(random() * tests);
  return Array.from({ length: tests }, (_, j) => (j === which ? drop : 0));
}

/**
 * When power at `drop` is under 80% for some test at the suite's budget: the smallest budget (of doublings) that
 * reaches it.
 */
function powerBudget(model: PoolModel, s: SimSettings, drop: number): string[] {
  const sessions = Math.max(200, Math.floor(s.sessions / 4));
  for (const factor of [1, 1.5, 2, 3, 4, 6, 8]) {
    const shape = model.shape(s.budget * factor);
    const runs = run(
      model,
      {
        shape,
        sessions,
        seed: s.seed + 100 + factor * 10,
        drops: () => new Array<number>(model.keys.length).fill(drop),
      },
      `power budget x${factor}`,
    );
    const worst = Math.min(
      ...model.keys.map((_, j) => runs.filter((v) => v[j]!.kind === 'regression').length / sessions),
    );
    if (worst >= 0.8)
      return [
        `power at -${pct(drop)}: at least 80% for every test at a budget of ` +
          `${(s.budget * factor).toFixed(0)} min (${shape.sweeps} sweeps; worst ` +
          `test ${pct(worst)} over ${sessions} sessions)`,
      ];
    if (shape.sweeps >= s.maxPairs) break;
  }
  return [`power at -${pct(drop)}: under 80% for some test at every budget up to max_pairs`];
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:sim: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
