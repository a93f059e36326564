// npm run bench:power -- [options]: how often a session catches a drop of a given size, measured, not assumed.
// Synthetic: on real pairs of one server against itself (a pool, as bench:aa keeps it), the candidate's QPS is
// multiplied by 0.98, 0.95, 0.90 and 0.80, and sessions drawn from the pool are judged under the sequential rule at
// the default settings; the detection rate is the share of sessions in which the test is flagged a regression.
// Real: --real-quota P runs one session in which the candidate server is held to P% of one CPU by the cgroup v1
// cpu controller, to check the synthetic figures against a slowdown the server really suffers.
import { parseArgs } from 'node:util';
import { pairsForDrop, type VerdictSettings } from '../src/analysis/index.js';
import { loadConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { compareSettings, runComparison } from '../src/session/index.js';
import { defaultSqlitePath, openStore } from '../src/store/index.js';
import { processCpuSeconds } from '../src/sampling/index.js';
import { loadSuite } from '../src/suite/index.js';
import { cpuQuotaAvailable, createCpuGroup, followServers } from './bench/cpu-quota.js';
import { drawSession, keyLabel, pairNoise, seededRandom, type PairPool } from './bench/paired-pool.js';
import { cleanUp, defaultConfig, keptPool, poolDirs, runPool, stateDirFor } from './bench/pool-store.js';

const HELP = `Usage: npm run bench:power -- [--from DIR | --keep DIR] [--pool-pairs N] [--sessions N] [--suite NAME]
                             [--budget MIN] [--drops 0.02,0.05,0.10,0.20] [--real-quota P] [--seed N]

Synthetic drops: the candidate's QPS of a pool of real A-against-A pairs (run here, or kept by bench:aa --keep)
is multiplied by (1 - drop) for every test; --sessions sessions (default 100) are drawn and judged at the default
settings within the suite's budget (or --budget). Prints, per drop and per test, the share of sessions that flag
the test as a regression (the power), and the median relative QPS reported.
--real-quota P: also runs one real session of this host's MariaDB against itself in which the candidate server
is held to P% of one CPU (cgroup v1 cpu controller, root), and prints its verdicts.
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      from: { type: 'string' },
      keep: { type: 'string' },
      'pool-pairs': { type: 'string' },
      sessions: { type: 'string' },
      suite: { type: 'string' },
      budget: { type: 'string' },
      drops: { type: 'string' },
      'real-quota': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const defaults = defaultConfig();
  const settings: VerdictSettings = {
    threshold: defaults.threshold,
    testThresholds: defaults.test_thresholds,
    alpha: defaults.alpha,
    confidence: defaults.confidence,
  };
  const drops = (values.drops ?? '0.02,0.05,0.10,0.20').split(',').map(Number);
  if (drops.some((d) => !(d >= 0 && d < 1)))
    throw new Error(`--drops ${JSON.stringify(values.drops)}: expected fractions from 0 to 1, e.g. 0.05,0.10`);
  const sessions = Number(values.sessions ?? 100);
  const dirs = poolDirs(values.keep, values.from);
  const stateDir = stateDirFor(dirs, 'power');
  try {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const pool =
        dirs.from === undefined
          ? await runPool(stateDir, store, values.suite ?? 'quick', Number(values['pool-pairs'] ?? 24))
          : await keptPool(store);
      const budget =
        values.budget === undefined ? loadSuite(pool.suite, defaults.suites_dir).budgetMinutes : Number(values.budget);
      process.stdout.write(
        [...synthetic(pool, drops, sessions, budget, settings, Number(values.seed ?? 1)), ''].join('\n'),
      );
    } finally {
      await store.close();
    }
  } finally {
    cleanUp(dirs, stateDir);
  }
  if (values['real-quota'] !== undefined)
    process.stdout.write(
      [...(await realSlowdown(Number(values['real-quota']), values.suite ?? 'quick', values.budget)), ''].join('\n'),
    );
  return 0;
}

function synthetic(
  pool: PairPool,
  drops: readonly number[],
  sessions: number,
  budget: number,
  settings: VerdictSettings,
  seed: number,
): string[] {
  const lines = [
    `synthetic drops injected into the candidate's QPS of real pairs: pool ` +
      `of ${pool.sweeps.length} sweeps of ${pool.suite}, ${sessions} sessions ` +
      `per drop, budget ${budget} min, threshold ${settings.threshold}, alpha ` +
      `${settings.alpha}`,
  ];
  const header = ['test', ...drops.map((d) => `-${(d * 100).toFixed(0)}%`)];
  const rows = pool.keys.map((k) => [keyLabel(k)]);
  const medians: string[] = [];
  for (const drop of drops) {
    const random = seededRandom(seed);
    const flagged = new Map(pool.keys.map((k) => [k, 0]));
    const minutes: number[] = [];
    for (let i = 0; i < sessions; i++) {
      const drawn = drawSession(pool, settings, budget, random, new Map(pool.keys.map((k) => [k, drop])));
      for (const v of drawn.verdicts)
        if (v.kind === 'regression')
          flagged.set(`${v.test}\u0000${v.threads}`, flagged.get(`${v.test}\u0000${v.threads}`)! + 1);
      minutes.push(drawn.minutes);
    }
    pool.keys.forEach((k, i) => rows[i]!.push(`${((100 * flagged.get(k)!) / sessions).toFixed(0)}%`));
    minutes.sort((a, b) => a - b);
    medians.push(
      `-${(drop * 100).toFixed(0)}%: median ${minutes[Math.floor(minutes.length / 2)]!.toFixed(1)} min of pairs`,
    );
  }
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    ...lines,
    'detection rate (share of sessions flagging the test as a regression):',
    ...all.map(line),
    ...medians,
    ...budgetFor(pool, 0.1, settings),
  ];
}

/**
 * The budget at which every test would catch a drop of `drop` 4 times in 5: from each test's pair noise in the pool,
 * the pairs that bring its detectable drop down to `drop` (calibrate's arithmetic), rounded up to the look that
 * reaches them, times what a sweep of the tests costs (every test measured until its own look).
 */
function budgetFor(pool: PairPool, drop: number, settings: VerdictSettings): string[] {
  const noise = pairNoise(pool);
  const needed = pool.keys.map((k) => ({
    k,
    n: pairsForDrop(noise.get(k)!, {
      alpha: settings.alpha,
      family: pool.keys.length,
      drop,
      maxPairs: settings.maxPairs ?? 200,
    }),
  }));
  if (needed.some((x) => x.n === null))
    return [
      `a ${(drop * 100).toFixed(0)}% drop is out of reach for ${needed
        .filter((x) => x.n === null)
        .map((x) => keyLabel(x.k))
        .join(', ')} at any budget on this pool's noise`,
    ];
  // A session plans its looks on its budget, so the pairs a test needs are what its budget must pay for.
  const atLook = needed.map((x) => ({ ...x, n: x.n! }));
  const seconds = atLook.reduce((sum, x) => sum + x.n * pool.pairSeconds.get(x.k)!, 0);
  return [
    `pairs each test needs for 80% power at a ${(drop * 100).toFixed(0)}% ` +
      `drop (from its pair noise, with the last look there): ` +
      `${atLook.map((x) => `${keyLabel(x.k)} ${x.n}`).join(', ')}`,
    `a budget of about ${Math.ceil(seconds / 60)} min of pairs reaches that for every test`,
  ];
}

/** One real session: the candidate server held to `quota`% of one CPU from the moment it is up. */
async function realSlowdown(quota: number, suiteName: string, budget: string | undefined): Promise<string[]> {
  if (!(quota > 0 && quota <= 200))
    throw new Error(`--real-quota ${quota}: expected a percentage of one CPU from 1 to 200`);
  if (!cpuQuotaAvailable())
    return [`real slowdown: skipped, the cgroup v1 cpu controller at /sys/fs/cgroup/cpu needs root`];
  const dirs = poolDirs(undefined, undefined);
  const stateDir = stateDirFor(dirs, 'power-real');
  const group = createCpuGroup(`qpswatch-power-${process.pid}`);
  const controller = new AbortController();
  try {
    group.setQuota(quota);
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const config = loadConfig({ env: { ...process.env, QPSWATCH_STATE_DIR: stateDir }, cwd: process.cwd() });
      const log = createLogger('info', 'json');
      config.targets = {
        b: { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' },
        c: { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' },
      };
      const suite = loadSuite(suiteName, config.suites_dir);
      // The baseline is the same server, free: the CPU it uses while measured says what the quota takes from the
      // candidate (a server that needs U of a CPU and gets P% runs at about P/100/U of its speed).
      // Summed over the baseline's instances (a session restarts both servers every instance block); each
      // instance's figure counts from its start, so its load and warm-up are in it: an upper bound of U.
      const cpuOf = new Map<number, number>();
      const watcher = followServers(stateDir, { candidate: group }, controller.signal, (pids) => {
        const seconds = pids.baseline !== undefined ? processCpuSeconds(pids.baseline) : undefined;
        if (seconds !== undefined) cpuOf.set(pids.baseline!, seconds);
      });
      const started = Date.now();
      const outcome = await runComparison(
        {
          baseline: 'b',
          candidate: 'c',
          suite,
          rounds: 1,
          design: 'paired',
          ...(budget !== undefined ? { budgetMinutes: Number(budget) } : {}),
        },
        { settings: compareSettings(config), store, log, upstreams: [], signal: new AbortController().signal },
      );
      controller.abort();
      await watcher.catch(() => undefined);
      const minutes = (Date.now() - started) / 60_000;
      const measured = (await store.completedSamples(outcome.sessionId))
        .filter((x) => x.role === 'baseline')
        .reduce((sum, x) => sum + x.seconds, suite.warmup.seconds);
      const used = cpuOf.size > 0 ? [...cpuOf.values()].reduce((a, b) => a + b, 0) / measured : Number.NaN;
      const geo = Math.exp(
        outcome.verdicts.reduce((sum, v) => sum + Math.log(v.relativeQps), 0) / Math.max(outcome.verdicts.length, 1),
      );
      return [
        `real slowdown: candidate server held to ${quota}% of one CPU (cgroup ` +
          `v1 cpu.cfs_quota_us), baseline free; ${minutes.toFixed(1)} min, ` +
          `${outcome.paired?.sweeps ?? 0} sweeps, stopped by ` +
          `${outcome.paired?.stoppedBy ?? '?'}`,
        `the free baseline server used at most ${used.toFixed(2)} of a CPU while ` +
          `measured: the quota should leave the candidate about ` +
          `${Math.min(1, quota / 100 / used).toFixed(2)} of its speed; the tests' ` +
          `geometric mean C/B is ${geo.toFixed(2)}`,
        ...outcome.verdicts.map(
          (v) =>
            `${v.test}.t${v.threads}: ${v.kind}, C/B ${v.relativeQps.toFixed(3)} ` +
            `[${v.low.toFixed(3)}, ${v.high?.toFixed(3) ?? 'none'}], ${v.pairs} ` +
            `pairs, detectable ${(100 * v.detectableDrop).toFixed(1)}%`,
        ),
      ];
    } finally {
      await store.close();
    }
  } finally {
    controller.abort();
    group.remove();
    cleanUp(dirs, stateDir);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  process.stderr.write(`bench:power: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
});
