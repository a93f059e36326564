// npm run bench:aa -- [options]: the false-alarm rate and the decisiveness of verdicts on this host. By default
// --sessions independent real paired sessions of this host's MariaDB against itself, each loaded afresh and on new
// server instances, judged as compare judges them: their rates come from independent trials. With --pool-pairs (or
// --from), a pool of real pairs and sessions drawn from it instead: cheaper, but every drawn session reuses the
// pool's pairs, so they are not independent trials.
// Every regression verdict is a false alarm; every unstable verdict is a test the budget could not decide.
import { parseArgs } from 'node:util';
import type { VerdictSettings } from '../src/analysis/index.js';
import { openStore, defaultSqlitePath } from '../src/store/index.js';
import { drawSession, keyLabel, pairNoise, seededRandom, type PairPool } from './bench/paired-pool.js';
import {
  cleanUp,
  defaultConfig,
  keptPool,
  poolDirs,
  runPool,
  runRealSession,
  stateDirFor,
} from './bench/pool-store.js';
import { upperBound95 } from './bench/binomial.js';
import { loadSuite } from '../src/suite/index.js';

const HELP = `Usage: npm run bench:aa -- [--sessions N] [--suite NAME] [--budget MIN] [--keep DIR]
       npm run bench:aa -- --pool-pairs N [--sessions N] [--suite NAME] [--budget MIN] [--seed N] [--keep DIR]
       npm run bench:aa -- --from DIR [--sessions N] [--budget MIN] [--seed N]

Measures how often a session of one server against itself gets any regression verdict (the goal: none), and how
many tests it leaves unstable.

Real sessions (the default): --sessions independent paired sessions (default 10) of this host's MariaDB (profile
relaxed) against itself, each loaded afresh, with new server instances every instance_seconds, decided by the
sequential rule within --budget minutes (default: the suite's) at the config's settings (QPSWATCH_* variables
change them). The false alarms are counted over independent trials and printed with their 95% upper bound.
About the budget plus 2 minutes a session: 10 sessions of the quick suite take about 100 minutes.

Pool (--pool-pairs N): one paired session of N sweeps, every test in every sweep, with new server instances every
instance_seconds as a session has; then --sessions sessions (default 40) are drawn from it (its sweeps in a random
order, each drawn sweep a block) and replayed under the sequential rule. Every drawn session reuses the pool's
pairs, so their rates are not from independent trials: the real sessions above are. bench:sim draws offsets
between instances of this host's calibrated size.

  --keep DIR    keep the store in DIR (a new or empty folder): a pool to judge again, or the real sessions
  --from DIR    judge the pool kept in DIR again; no server is run
`;

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${flag} ${JSON.stringify(text)}: expected a whole number of at least ${min}`);
  return n;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function report(pool: PairPool, sessions: number, seed: number, budget: number, settings: VerdictSettings): string[] {
  const random = seededRandom(seed);
  let alarmed = 0;
  let unstable = 0;
  let verdicts = 0;
  let short = 0;
  const minutes: number[] = [];
  const bounds: number[] = [];
  const alarms = new Map<string, number>();
  for (let i = 0; i < sessions; i++) {
    const drawn = drawSession(pool, settings, budget, random);
    const flagged = drawn.verdicts.filter((v) => v.kind === 'regression');
    if (flagged.length > 0) alarmed += 1;
    for (const v of flagged) alarms.set(`${v.test}.t${v.threads}`, (alarms.get(`${v.test}.t${v.threads}`) ?? 0) + 1);
    unstable += drawn.verdicts.filter((v) => v.kind === 'unstable').length;
    verdicts += drawn.verdicts.length;
    bounds.push(...drawn.verdicts.filter((v) => v.kind === 'ok').map((v) => Math.max(0, 1 - v.low)));
    minutes.push(drawn.minutes);
    if (drawn.poolShort) short += 1;
  }
  bounds.sort((a, b) => a - b);
  minutes.sort((a, b) => a - b);
  const noise = [...pairNoise(pool)].map(([k, s]) => `${keyLabel(k)} ${pct(s)}`);
  const sorted = [...pairNoise(pool).values()].sort((a, b) => a - b);
  return [
    `pool measured with idle_server ` +
      `${String(pool.settings['idleServer'] ?? '?')}, idle states held: ` +
      `${String(pool.settings['idleStatesHeld'] ?? '?')}`,
    `pair noise (sd of the log ratio of a pair): median ` +
      `${pct(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN)}; ` +
      `${noise.join(', ')}`,
    `pool: ${pool.sweeps.length} sweeps of the ${pool.suite} suite ` +
      `(${pool.keys.length} tests: ${pool.keys.map(keyLabel).join(', ')}), ` +
      `${(pool.seconds / 60).toFixed(1)} min of pairs`,
    `sessions drawn: ${sessions}, budget ${budget} min, threshold ` +
      `${settings.threshold}, alpha ${settings.alpha}, confidence ` +
      `${settings.confidence}`,
    `sessions with any regression verdict (false alarms): ${alarmed} of ` +
      `${sessions}${alarms.size > 0 ? ` (${[...alarms].map(([t, n]) => `${t} x${n}`).join(', ')})` : ''}`,
    `unstable verdicts: ${unstable} of ${verdicts} (${pct(unstable / Math.max(verdicts, 1))})`,
    `ok verdicts rule out drops larger than: median ` +
      `${pct(bounds[Math.floor(bounds.length / 2)] ?? Number.NaN)}, worst ` +
      `${pct(bounds.at(-1) ?? Number.NaN)}`,
    `minutes of pairs per session: median ` +
      `${(minutes[Math.floor(minutes.length / 2)] ?? 0).toFixed(1)}, max ` +
      `${(minutes.at(-1) ?? 0).toFixed(1)}`,
    ...(short > 0
      ? [
          `note: in ${short} of ${sessions} sessions the pool ran out of sweeps ` +
            `before the rule or the budget ended them; keep a larger pool ` +
            `(--pool-pairs)`,
        ]
      : []),
  ];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      'pool-pairs': { type: 'string' },
      sessions: { type: 'string' },
      suite: { type: 'string' },
      budget: { type: 'string' },
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
  if (values['pool-pairs'] === undefined && dirs.from === undefined)
    return realSessions(dirs, values.suite ?? 'quick', whole('sessions', values.sessions, 10, 1), values.budget);
  const poolPairs = whole('pool-pairs', values['pool-pairs'], 24, 8);
  const sessions = whole('sessions', values.sessions, 40, 1);
  const seed = whole('seed', values.seed, 1, 0);
  const stateDir = stateDirFor(dirs, 'aa');
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const pool =
        dirs.from === undefined
          ? await runPool(stateDir, store, values.suite ?? 'quick', poolPairs)
          : await keptPool(store);
      const budget =
        values.budget === undefined ? loadSuite(pool.suite, defaults.suites_dir).budgetMinutes : Number(values.budget);
      if (!(budget > 0))
        throw new Error(`--budget ${JSON.stringify(values.budget)}: expected minutes, a number greater than 0`);
      const settings: VerdictSettings = {
        threshold: defaults.threshold,
        testThresholds: defaults.test_thresholds,
        alpha: defaults.alpha,
        confidence: defaults.confidence,
      };
      process.stdout.write([...report(pool, sessions, seed, budget, settings), ''].join('\n'));
      if (dirs.keep !== undefined)
        process.stdout.write(`pool kept in ${dirs.keep}: judge it again with --from ${dirs.keep}\n`);
      return 0;
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(dirs, stateDir);
  }
}

/**
 * Independent real sessions, one after the other, each with its own loaded targets and server instances: every
 * regression verdict is a false alarm, and each session is one trial of the family-wise rate.
 */
async function realSessions(
  dirs: ReturnType<typeof poolDirs>,
  suite: string,
  sessions: number,
  budgetText: string | undefined,
): Promise<number> {
  const budget = budgetText === undefined ? undefined : Number(budgetText);
  if (budget !== undefined && !(budget > 0))
    throw new Error(`--budget ${JSON.stringify(budgetText)}: expected minutes, a number greater than 0`);
  const stateDir = stateDirFor(dirs, 'aa');
  const alarms = new Map<string, number>();
  let alarmed = 0;
  let unstable = 0;
  let verdicts = 0;
  const minutes: number[] = [];
  const bounds: number[] = [];
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      for (let i = 1; i <= sessions; i++) {
        process.stderr.write(`bench:aa: real session ${i} of ${sessions}\n`);
        const outcome = await runRealSession(stateDir, store, suite, budget);
        const flagged = outcome.verdicts.filter((v) => v.kind === 'regression');
        if (flagged.length > 0) alarmed++;
        for (const v of flagged)
          alarms.set(`${v.test}.t${v.threads}`, (alarms.get(`${v.test}.t${v.threads}`) ?? 0) + 1);
        unstable += outcome.verdicts.filter((v) => v.kind === 'unstable').length;
        verdicts += outcome.verdicts.length;
        bounds.push(...outcome.verdicts.filter((v) => v.kind === 'ok').map((v) => Math.max(0, 1 - v.low)));
        minutes.push(outcome.paired?.minutes ?? 0);
      }
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(dirs, stateDir);
  }
  bounds.sort((a, b) => a - b);
  minutes.sort((a, b) => a - b);
  const lines = [
    `real sessions: ${sessions} independent paired sessions of the ${suite} suite, this host's MariaDB against ` +
      `itself, each loaded afresh on new server instances${budget !== undefined ? `, budget ${budget} min` : ''}`,
    `sessions with any regression verdict (false alarms): ${alarmed} of ${sessions} ` +
      `(${pct(alarmed / sessions)}; 95% upper bound ${pct(upperBound95(alarmed, sessions))})` +
      (alarms.size > 0 ? ` (${[...alarms].map(([t, n]) => `${t} x${n}`).join(', ')})` : ''),
    `unstable verdicts: ${unstable} of ${verdicts} (${pct(unstable / Math.max(verdicts, 1))})`,
    `ok verdicts rule out drops larger than: median ${pct(bounds[Math.floor(bounds.length / 2)] ?? Number.NaN)}, ` +
      `worst ${pct(bounds.at(-1) ?? Number.NaN)}`,
    `minutes of pairs per session: median ${(minutes[Math.floor(minutes.length / 2)] ?? 0).toFixed(1)}, max ` +
      `${(minutes.at(-1) ?? 0).toFixed(1)}`,
    `command: npm run bench:aa -- --sessions ${sessions} --suite ${suite}` +
      (budget !== undefined ? ` --budget ${budget}` : ''),
  ];
  process.stdout.write([...lines, ''].join('\n'));
  if (dirs.keep !== undefined) process.stdout.write(`sessions kept in ${dirs.keep}\n`);
  return 0;
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:aa: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
