// npm run bench:sim -- [options]: the verdict rule's error rates and power, from thousands of independent simulated
// sessions built on a real pool of this host's pairs (see --help). Figures go to stdout, progress to stderr.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/index.js';
import { stepStandardErrors, type LookPlan, type PairedJudgement } from '../src/analysis/index.js';
import { thisHostCalibration } from '../src/session/index.js';
import { loadSuite } from '../src/suite/index.js';
import { openStore, defaultSqlitePath } from '../src/store/index.js';
import { cleanUp, defaultConfig, keptPool, poolDirs, runPool, stateDirFor } from './bench/pool-store.js';
import { keyLabel, seededRandom } from './bench/paired-pool.js';
import {
  HICCUP_SIZE,
  plannedLooks,
  poolModel,
  sessionDraws,
  simulateSession,
  simulateSessionBefore,
  syntheticModel,
  type PoolModel,
  type SessionShape,
  type SimSettings,
} from './bench/sim-session.js';
import { upperBound95 } from './bench/binomial.js';
import { simulateSeries, type DriftOutcome } from './bench/sim-drift.js';

const HELP = `Usage: npm run bench:sim -- [--from DIR | --keep DIR | --synthetic SD [--hiccups SHARE]]
                           [--pool-pairs N] [--suite NAME] [--null-sessions N] [--sessions N] [--series N]
                           [--seed N] [--instance-sd SD] [--looks B:S,...] [--pairs-only]

Validates the paired verdict rule at the default settings (threshold, alpha, confidence, max_pairs) on
sessions simulated from a real pool of this host's pairs. The pool is one paired session of this host's
MariaDB against itself, every test in every sweep (--pool-pairs sweeps, default 40), or a pool kept
earlier by bench:aa or bench:sim with --keep DIR (--from DIR judges it again; no server is run).

Each simulated session is independent: every sweep draws a pool sweep at random, and gives each test that
sweep's residual (its log ratio less the test's pool mean and order effect), with one random sign for the
whole sweep (so the tests of a sweep keep what they share), plus the test's order effect in this session's
order (B C, C B, ... as a real session alternates), plus, per test, the offset between the two server instances
of the sweep's block, plus the true drop of the scenario. The real rule (replayLooks, what a session runs) judges
it within the budget. The rule before issue 30 (scripts/bench/rule-before.ts: one pair of instances for the whole
session, every test in every sweep) judges the very same simulated sessions where it is shown beside: the same
residuals sweep by sweep and the same first pair of instances. Scenarios:

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
  --instance-sd SD    the sd of one instance's offset (log units; default this host's calibrated spread, at
                      least 0.02)
  --synthetic SD      no pool and no server: 8 tests of 1 s whose pairs are normal with this sd (e.g. 0.08),
                      independent across tests and sweeps, without an order effect
  --hiccups SHARE     with --synthetic: the share of pairs hit by a hiccup, an extra normal of ${HICCUP_SIZE} times
                      the sd
  --looks B:S,...     the new rule's looks at B blocks each, spending the share S of every rate there (the shares
                      add up to at most 1), in every scenario instead of the planned looks: other plans weighed
                      on the same sessions
  --pairs-only        print only the pairs to a decision under both rules (the rest takes a while)
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

/** The looks of --looks, when given: they replace the planned looks of every scenario. */
let customLooks: LookPlan | undefined;

/** Session i of a scenario draws sessionDraws(model, seed, i): any rule run on the same seed judges the same ones. */
function run(model: PoolModel, scenario: Scenario, label: string): PairedJudgement[][] {
  const random = seededRandom(scenario.seed);
  const all: PairedJudgement[][] = [];
  const started = Date.now();
  for (let i = 0; i < scenario.sessions; i++) {
    const draws = sessionDraws(model, scenario.seed, i);
    all.push(simulateSession(model, scenario.shape, scenario.drops(i, random), draws, customLooks));
    if ((i + 1) % 500 === 0)
      process.stderr.write(
        `bench:sim: ${label}: ${i + 1} of ${scenario.sessions} sessions, ` +
          `${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
  }
  return all;
}

function describeShape(model: PoolModel, shape: SessionShape): string {
  const looks =
    customLooks === undefined
      ? `looks at ${plannedLooks(model, shape).join(', ')}`
      : `looks (--looks) at ${customLooks.blocks.map((b, i) => `${b} (share ${customLooks!.shares[i]})`).join(', ')}`;
  return `${shape.plannedBlocks} blocks planned, ${looks} (${shape.sweepSeconds.toFixed(1)} s a sweep of every test)`;
}

/** "10:0.8,17:0.2": looks at 10 and 17 blocks spending 80% and 20% of every rate. */
function parseLooks(text: string): LookPlan {
  const looks = text.split(',').map((part) => part.split(':').map(Number));
  const blocks = looks.map((l) => l[0]!);
  const shares = looks.map((l) => l[1]!);
  const ascending = blocks.every((b, i) => Number.isInteger(b) && b >= 2 && (i === 0 || b > blocks[i - 1]!));
  const spent = shares.reduce((a, v) => a + v, 0);
  if (!ascending || !shares.every((v) => v > 0) || spent > 1 + 1e-9 || looks.some((l) => l.length !== 2))
    throw new Error(
      `--looks ${JSON.stringify(text)}: expected BLOCKS:SHARE,... with blocks ascending from 2 and shares over 0 ` +
        `adding up to at most 1, e.g. 10:0.8,17:0.2`,
    );
  return { blocks, shares };
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
      'instance-sd': { type: 'string' },
      synthetic: { type: 'string' },
      hiccups: { type: 'string' },
      looks: { type: 'string' },
      'pairs-only': { type: 'boolean' },
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
  const nullSessions = whole('null-sessions', values['null-sessions'], 10_000, 1);
  const sessions = whole('sessions', values.sessions, 2000, 1);
  const series = whole('series', values.series, 500, 0);
  const seed = whole('seed', values.seed, 1, 0);
  if (values.looks !== undefined) customLooks = parseLooks(values.looks);
  const options = (suite: string, instanceSd: number): SimOptions => ({
    budget: loadSuite(suite, defaults.suites_dir).budgetMinutes,
    seed,
    nullSessions,
    sessions,
    series,
    threshold: defaults.threshold,
    alpha: defaults.alpha,
    confidence: defaults.confidence,
    maxPairs: defaults.max_pairs,
    instanceSeconds: defaults.instance_seconds,
    instanceSd,
    flags: process.argv.slice(2).join(' '),
    pairsOnly: values['pairs-only'] === true,
  });
  if (values.synthetic !== undefined) {
    if (values.keep !== undefined || values.from !== undefined)
      throw new Error('--synthetic needs no pool: give it without --keep or --from');
    const noise = share('synthetic', values.synthetic);
    const hiccups = values.hiccups === undefined ? 0 : share('hiccups', values.hiccups);
    const s = options('quick', await instanceSpread(values['instance-sd'], 'quick'));
    const model = syntheticModel({ noise, tests: 8, seconds: 1, hiccups, sweeps: 4000, seed }, simSettings(s));
    simulate(
      model,
      `synthetic pool: 8 tests of 1 s, normal pairs of sd ${pct(noise)}, ${pct(hiccups)} of them hit by a ` +
        `hiccup of ${HICCUP_SIZE} times that; no order effect`,
      s,
    );
    return 0;
  }
  if (values.hiccups !== undefined) throw new Error('--hiccups is for --synthetic pools');
  const dirs = poolDirs(values.keep, values.from);
  const stateDir = stateDirFor(dirs, 'sim');
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const pool =
        dirs.from === undefined
          ? await runPool(stateDir, store, values.suite ?? 'quick', whole('pool-pairs', values['pool-pairs'], 40, 8))
          : await keptPool(store);
      const s = options(pool.suite, await instanceSpread(values['instance-sd'], pool.suite));
      const model = poolModel(pool, simSettings(s));
      simulate(
        model,
        `pool: ${pool.sweeps.length} sweeps of the ${pool.suite} suite, ${model.keys.length} tests ` +
          `(${model.keys.map(keyLabel).join(', ')}); pair noise ${model.noise.map((n) => pct(n)).join(', ')}\n` +
          `order effect (second run over first) in the pool: ` +
          `${model.orderEffects.map((o) => pct(Math.exp(o) - 1)).join(', ')}`,
        s,
      );
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(dirs, stateDir);
  }
}

function share(flag: string, text: string): number {
  const v = Number(text);
  if (!(v >= 0 && v < 1)) throw new Error(`--${flag} ${JSON.stringify(text)}: expected a share from 0 to 1`);
  return v;
}

function simSettings(s: SimOptions): SimSettings {
  return {
    alpha: s.alpha,
    confidence: s.confidence,
    maxPairs: s.maxPairs,
    threshold: s.threshold,
    instanceSeconds: s.instanceSeconds,
    instanceSd: s.instanceSd,
  };
}

/** Offsets between instances are drawn at least this large, whatever this host measured. */
const MIN_INSTANCE_SD = 0.02;

/**
 * The sd of one instance's offset: --instance-sd, else this host's newest calibration of the suite (in the config's
 * store), at least MIN_INSTANCE_SD.
 */
async function instanceSpread(flag: string | undefined, suite: string): Promise<number> {
  if (flag !== undefined) {
    const sd = Number(flag);
    if (!(sd >= 0 && sd < 1)) throw new Error(`--instance-sd ${JSON.stringify(flag)}: expected a share from 0 to 1`);
    return sd;
  }
  const config = loadConfig({ env: process.env, cwd: process.cwd() });
  const path = defaultSqlitePath(config.state_dir);
  if (!existsSync(path)) return MIN_INSTANCE_SD;
  const store = await openStore({ backend: 'sqlite', path });
  try {
    const record = await thisHostCalibration(config.state_dir, store, suite);
    const measured = record?.instanceSpread ?? 0;
    if (record !== undefined)
      process.stderr.write(`bench:sim: this host's calibration of ${suite}: instance spread ${pct(measured)}\n`);
    return Math.max(MIN_INSTANCE_SD, measured);
  } finally {
    await store.close();
  }
}

interface SimOptions {
  budget: number;
  seed: number;
  nullSessions: number;
  sessions: number;
  series: number;
  threshold: number;
  alpha: number;
  confidence: number;
  maxPairs: number;
  instanceSeconds: number;
  instanceSd: number;
  /** The command's own flags, printed with the figures. */
  flags: string;
  /** --pairs-only: the pairs to a decision alone. */
  pairsOnly: boolean;
}

function simulate(model: PoolModel, description: string, s: SimOptions): void {
  const quick = model.shape(s.budget);
  const long = model.shape(Number.POSITIVE_INFINITY);
  const tests = model.keys.length;
  const same = (drop: number) => () => new Array<number>(tests).fill(drop);
  // Each figure is printed as soon as it is known: the long scenarios take a while.
  const out = { push: (...lines: string[]): void => void process.stdout.write(lines.map((l) => `${l}\n`).join('')) };
  out.push(
    description,
    `instances: each test's offset on one server instance drawn with sd ${pct(s.instanceSd)} (a pair of ` +
      `instances differs by sd ${pct(s.instanceSd * Math.SQRT2)}); new instances every ${s.instanceSeconds} s of runs`,
    `settings: threshold ${s.threshold}, alpha ${s.alpha}, confidence ` +
      `${s.confidence}, max_pairs ${s.maxPairs}; budget ${s.budget} min: ${describeShape(model, quick)}; ` +
      `long: ${describeShape(model, long)}`,
    `command: npm run bench:sim -- ${s.flags} (seed ${s.seed}, instance sd ${s.instanceSd})`,
    '',
  );
  if (s.pairsOnly) {
    out.push(...pairsTable(model, s, quick, long));
    return;
  }
  const regressed = (v: ReadonlyArray<{ kind: string }>): boolean => v.some((j) => j.kind === 'regression');
  const nullRuns = run(model, { shape: quick, sessions: s.nullSessions, seed: s.seed, drops: same(0) }, 'null');
  const alarms = nullRuns.filter(regressed).length;
  out.push(
    `null (no drop), ${s.budget}-min budget, ${s.nullSessions} sessions: ` +
      `family-wise false alarms (sessions with any regression) ${rate(alarms, s.nullSessions)}; ` +
      `target at most alpha ${s.alpha}, 95% bound under ${1.5 * s.alpha}`,
  );
  const nullLong = run(model, { shape: long, sessions: s.sessions, seed: s.seed + 1, drops: same(0) }, 'null, long');
  out.push(
    `null (no drop), up to ${long.plannedBlocks} blocks, ${s.sessions} sessions: ` +
      `family-wise false alarms ${rate(nullLong.filter(regressed).length, s.sessions)}`,
  );
  // The first s.sessions of the null sessions above, judged by the rule before on one pair of instances.
  const beforeSessions = Math.min(s.sessions, s.nullSessions);
  const before = runBefore(model, quick, beforeSessions, s.seed, same(0));
  out.push(
    `the rule before, on the same simulated sessions (the first ${beforeSessions} of the null above, one pair of ` +
      `instances each), ${s.budget}-min budget: family-wise false alarms ` +
      `${rate(before.filter(regressed).length, beforeSessions)}; the new rule on those: ` +
      `${rate(nullRuns.slice(0, beforeSessions).filter(regressed).length, beforeSessions)}`,
  );

  const margin = 1 - s.threshold;
  for (const [shape, label, seedOffset] of [
    [quick, `${s.budget}-min budget`, 2],
    [long, `up to ${long.plannedBlocks} blocks`, 3],
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
        `between 1% and ${pct((1 - s.confidence) / 2)}`,
    );
  }
  out.push(...pairsTable(model, s, quick, long));
  out.push(...powerBudget(model, s, 0.1));

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
  const nulls = run(model, { shape: quick, sessions: s.sessions, seed: s.seed + 60, drops: same(0) }, 'decided');
  const unstable = nulls.flat().filter((j) => j.kind === 'unstable').length;
  out.push(
    `no drop, ${s.budget}-min budget: tests left unstable ${rate(unstable, nulls.flat().length)}; ` +
      `ok verdicts rule out drops larger than (median) ` +
      `${pct(
        middle(
          nulls
            .flat()
            .filter((j) => j.kind === 'ok')
            .map((j) => 1 - j.low),
        ),
      )}`,
  );
  // The same sessions with one look at the planned blocks: nothing stops early, so every test is measured to the end.
  const oneLook = { blocks: [quick.plannedBlocks], shares: [1] };
  const saved = customLooks;
  customLooks = oneLook;
  const measuredOn = run(model, { shape: quick, sessions: s.sessions, seed: s.seed + 60, drops: same(0) }, 'one look');
  customLooks = saved;
  out.push(...chainErrors(nulls.flat(), s.threshold), ...selectionBias(nulls, measuredOn, quick.plannedBlocks));

  for (const [shape, label, seedOffset] of [
    [quick, `${s.budget}-min budget`, 40],
    [long, `up to ${long.plannedBlocks} blocks`, 41],
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
  if (s.series > 0) out.push(...driftFigures(model, quick, s));
}

const middle = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Pairs to a decision, side by side: a -10% test's regression at both budgets, a test's ok at no drop. */
function pairsTable(model: PoolModel, s: SimOptions, quick: SessionShape, long: SessionShape): string[] {
  return [
    ...pairsToDecide(model, s, quick, `${s.budget}-min budget`, 0.1, 'regression'),
    ...pairsToDecide(model, s, long, 'up to max_pairs', 0.1, 'regression'),
    ...pairsToDecide(model, s, quick, `${s.budget}-min budget`, 0, 'ok'),
    ...pairsToDecide(model, s, long, 'up to max_pairs', 0, 'ok'),
  ];
}

/** The rule before on sessions 0 .. sessions - 1 of the scenario seeded `seed`: the new rule's very sessions. */
function runBefore(
  model: PoolModel,
  shape: SessionShape,
  sessions: number,
  seed: number,
  drops: () => number[],
): Array<Array<{ kind: string; pairs: number }>> {
  return Array.from({ length: sessions }, (_, i) =>
    simulateSessionBefore(model, shape, drops(), sessionDraws(model, seed, i)),
  );
}

/**
 * The pairs each rule needs to call every test `drop` slower a `kind`, side by side on the same simulated sessions
 * (the same residuals sweep by sweep, the same first pair of instances): per test and session, the pairs the test
 * had when it was called; a test never called counts as needing more than the session had (it sorts last), so a
 * median over half undecided reads "not within".
 */
function pairsToDecide(
  model: PoolModel,
  s: SimOptions,
  shape: SessionShape,
  label: string,
  drop: number,
  kind: 'regression' | 'ok',
): string[] {
  const sessions = Math.max(200, Math.floor(s.sessions / 2));
  const drops = () => new Array<number>(model.keys.length).fill(drop);
  const seed = s.seed + (kind === 'ok' ? 72 : 70);
  const now = run(model, { shape, sessions, seed, drops }, `pairs to decide, ${label}`);
  const before = runBefore(model, shape, sessions, seed, drops);
  const needed = (runs: ReadonlyArray<ReadonlyArray<{ kind: string; pairs: number }>>, j?: number): string => {
    const pairs = runs
      .flatMap((v) => (j === undefined ? v : [v[j]!]))
      .map((x) => (x.kind === kind ? x.pairs : Number.POSITIVE_INFINITY));
    const m = middle(pairs);
    return Number.isFinite(m) ? String(m) : 'not within';
  };
  const called = (runs: ReadonlyArray<ReadonlyArray<{ kind: string }>>): string =>
    pct(runs.flat().filter((x) => x.kind === kind).length / Math.max(runs.flat().length, 1));
  const what = kind === 'ok' ? 'a test with no drop ok' : `a -${pct(drop)} test a regression`;
  return [
    `pairs to call ${what}, ${label}, the same ${sessions} sessions under both rules: median over tests and ` +
      `sessions ${needed(before)} under the rule before, ${needed(now)} now (called at all: ${called(before)} ` +
      `before, ${called(now)} now); per test (before/now): ` +
      model.keys.map((k, j) => `${keyLabel(k)} ${needed(before, j)}/${needed(now, j)}`).join(', '),
  ];
}

/**
 * What the chain reads of a check: its estimate, its standard error and that error's degrees of freedom. At no drop,
 * (log estimate) / logSe should be about a t variable: its variance near 1 (a little over, from the t's tails). Over 1
 * by much means the errors understate the spread, or the tests stopped where their estimate happened to be
 * favourable. The step rule (chainSteps) marks a boundary between two chained versions when the checks between them
 * are stepStandardErrors(df) errors away from nothing and at least half the margin in size: at no drop, a check of
 * its own is such a boundary, so the share of these tests it would mark is the rule's false-mark rate, computed.
 */
function chainErrors(judged: readonly PairedJudgement[], threshold: number): string[] {
  const usable = judged.filter((j) => Number.isFinite(j.logSe) && j.logSe > 0);
  const z = usable.map((j) => Math.log(j.relativeQps) / j.logSe);
  const variance = z.reduce((a, v) => a + v * v, 0) / Math.max(z.length, 1);
  const past = usable.filter((j, i) => Math.abs(z[i]!) >= stepStandardErrors(Math.max(1, j.logSeDf)));
  const marked = past.filter((j) => Math.abs(j.relativeQps - 1) >= (1 - threshold) / 2).length;
  const meanLog = (of: readonly PairedJudgement[]): string =>
    `${((100 * of.reduce((a, j) => a + Math.log(j.relativeQps), 0)) / Math.max(of.length, 1)).toFixed(2)}%`;
  const oks = judged.filter((j) => j.kind === 'ok');
  const looks = [...new Set(oks.map((j) => j.look))].sort((a, b) => a - b);
  return [
    `chain: at no drop, variance of estimate / its standard error over ${z.length} tests ${variance.toFixed(2)} ` +
      `(about 1 wanted); mean log estimate of all tests ${meanLog(judged)}, of the tests called ok ` +
      `${meanLog(oks)} (${oks.length}; by the look that decided them: ` +
      `${looks.map((l) => `look ${l} ${meanLog(oks.filter((j) => j.look === l))}`).join(', ')})`,
    `step rule at no drop (t at each check's own degrees of freedom, 1 in 370 meant): past its standard errors ` +
      `${rate(past.length, usable.length)}; marked (and at least half the margin) ${rate(marked, usable.length)}`,
  ];
}

/**
 * Where the ok tests' lean comes from, on the same sessions: the tests called ok as the rule stops them; the same
 * tests' estimates had they been measured to the planned blocks (one look there, nothing stopped); and the tests
 * called ok by that one look. The first less the second is what stopping adds; the third is the selection itself
 * (an ok needs an estimate high enough), which no choice of pairs from the same session takes away.
 */
function selectionBias(
  stopped: ReadonlyArray<readonly PairedJudgement[]>,
  measuredOn: ReadonlyArray<readonly PairedJudgement[]>,
  blocks: number,
): string[] {
  const meanLog = (of: ReadonlyArray<{ relativeQps: number }>): string =>
    `${((100 * of.reduce((a, j) => a + Math.log(j.relativeQps), 0)) / Math.max(of.length, 1)).toFixed(2)}%`;
  const okStopped = stopped.flatMap((v, i) => v.flatMap((j, t) => (j.kind === 'ok' ? [[j, measuredOn[i]![t]!]] : [])));
  const okOneLook = measuredOn.flat().filter((j) => j.kind === 'ok');
  return [
    `chain, where the ok tests' lean comes from (the same sessions): called ok as the rule stops them ` +
      `${meanLog(okStopped.map(([j]) => j!))} (${okStopped.length} tests); the same tests measured on to ${blocks} ` +
      `blocks ${meanLog(okStopped.map(([, m]) => m!))}; called ok by one look at ${blocks} blocks ` +
      `${meanLog(okOneLook)} (${okOneLook.length})`,
  ];
}

/** The drift scenario: series of 6 releases at 3% per release, each checked within the suite's budget. */
function driftFigures(model: PoolModel, shape: SessionShape, s: SimOptions): string[] {
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
function powerBudget(model: PoolModel, s: SimOptions, drop: number): string[] {
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
          `${(s.budget * factor).toFixed(0)} min (${shape.plannedBlocks} blocks; worst ` +
          `test ${pct(worst)} over ${sessions} sessions)`,
      ];
    if (shape.plannedBlocks >= s.maxPairs) break;
  }
  return [`power at -${pct(drop)}: under 80% for some test at every budget up to max_pairs`];
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:sim: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
