// A pool of real pairs of one server against itself, and sessions drawn from it: what bench:aa and bench:power judge.
// The pool is one paired session that measures every test in every sweep (no early decisions); a drawn session
// takes the pool's sweeps in a random order that keeps a real session's alternation of which server runs first, and
// replays the sequential rule on them as a real session decides: a test stops getting pairs once decided, and the
// budget counts the time each sweep would have taken. The pool restarts both servers every instance_seconds of runs,
// as a session does (every sweep of the quick suite), so its pairs come from many pairs of instances; but every
// session drawn from it reuses the same pairs, so the drawn sessions are not independent trials. bench:aa's default
// runs independent real sessions for that, and bench:sim draws offsets between instances of a measured size.
import { judgePairedSession, mulberry32, pairStatistic, type VerdictSettings } from '../../src/analysis/index.js';
import { testKey, type Verdict } from '../../src/model/index.js';
import type { SampleRecord } from '../../src/store/index.js';

export interface PairPool {
  /** How the pool was measured: the session's settings (idle server mode, idle-state hold). */
  settings: Record<string, unknown>;
  /** sweeps[i] maps a test key to its pair in that sweep. */
  sweeps: Array<Map<string, { b: SampleRecord; c: SampleRecord }>>;
  /** rounds[i]: the pool session's sweep number of sweeps[i]; its parity says which server ran first in each pair. */
  rounds: number[];
  keys: string[];
  /** Seconds one pair of each test took in the pool, on average. */
  pairSeconds: Map<string, number>;
  suite: string;
  seconds: number;
}

export function poolFromSamples(
  samples: readonly SampleRecord[],
  suite: string,
  seconds: number,
  settings: Record<string, unknown> = {},
): PairPool {
  const bySweep = new Map<number, Map<string, { b?: SampleRecord; c?: SampleRecord }>>();
  for (const s of samples) {
    const sweep = bySweep.get(s.round) ?? new Map<string, { b?: SampleRecord; c?: SampleRecord }>();
    const pair = sweep.get(testKey(s)) ?? {};
    if (s.role === 'baseline') pair.b = s;
    else pair.c = s;
    sweep.set(testKey(s), pair);
    bySweep.set(s.round, sweep);
  }
  const keys = [...new Set(samples.map(testKey))];
  const completeEntries = [...bySweep.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([, sweep]) => keys.every((k) => sweep.get(k)?.b !== undefined && sweep.get(k)?.c !== undefined));
  const complete = completeEntries.map(([, sweep]) => new Map([...sweep].map(([k, p]) => [k, { b: p.b!, c: p.c! }])));
  const rounds = completeEntries.map(([round]) => round);
  // Time per pair, split between tests by their measured seconds (a test's two runs plus its share of overhead).
  const runSeconds = new Map(
    keys.map((k) => [k, samples.filter((s) => testKey(s) === k).reduce((a, s) => a + s.seconds, 0)]),
  );
  const totalRun = [...runSeconds.values()].reduce((a, v) => a + v, 0);
  const pairSeconds = new Map(
    keys.map((k) => [k, (seconds * runSeconds.get(k)!) / totalRun / Math.max(complete.length, 1)]),
  );
  return { settings, sweeps: complete, rounds, keys, pairSeconds, suite, seconds };
}

/** The analysis room's seeded generator, so a drawn session is the same on every run with the same seed. */
export const seededRandom = mulberry32;

export interface DrawnSession {
  verdicts: Verdict[];
  /** Minutes the session would have measured pairs. */
  minutes: number;
  pairs: number;
  /** The pool ran out of sweeps before the rule or the budget ended the session. */
  poolShort: boolean;
}

/**
 * One session drawn from the pool: its sweeps in a random order (the same order for every test, which keeps what
 * tests of one sweep share), candidate QPS multiplied by (1 - drop) where a drop is injected, replayed under the
 * sequential rule within the budget.
 */
export function drawSession(
  pool: PairPool,
  budgetSettings: VerdictSettings,
  budgetMinutes: number,
  random: () => number,
  drop: ReadonlyMap<string, number> = new Map(),
): DrawnSession {
  // A session plans its looks for the pairs its budget pays for, at most max_pairs (session/compare.ts, sessionPlan).
  const sweepSeconds = pool.keys.reduce((a, k) => a + pool.pairSeconds.get(k)!, 0);
  const maxPairs = Math.max(
    1,
    Math.min(budgetSettings.maxPairs ?? 200, Math.floor((budgetMinutes * 60) / sweepSeconds)),
  );
  // Each drawn sweep counts as a block of its own: the quick suite's pool restarts its servers every sweep, so each of
  // its sweeps is a pair of instances (a pool of a shorter sweep shares instances between sweeps, which this spreads).
  const settings = { ...budgetSettings, maxPairs, plannedBlocks: maxPairs };
  const order = alternatingOrder(pool, random);
  // A test decided at a look gets no more pairs, as a real session measures.
  let open = [...pool.keys];
  const samples: SampleRecord[] = [];
  let seconds = 0;
  let nextLook = 1;
  for (let k = 1; ; k++) {
    const sweep = order[k - 1];
    if (sweep === undefined) return finish(samples, settings, seconds, k - 1, true);
    for (const key of open) {
      const { b, c } = sweep.get(key)!;
      const factor = 1 - (drop.get(key) ?? 0);
      // In the order they were measured: which side ran first is part of the pair.
      const [bk, ck] = [
        { ...b, round: k },
        { ...c, round: k, qps: c.qps * factor },
      ];
      samples.push(...(b.id < c.id ? [bk, ck] : [ck, bk]));
      seconds += pool.pairSeconds.get(key)!;
    }
    if (k >= nextLook) {
      const judged = judgePairedSession(samples, settings, false);
      open = open.filter((key) => judged.pending.includes(key));
      nextLook = judged.nextBlocks;
    }
    if (open.length === 0) return finish(samples, settings, seconds, k, false);
    const next = open.reduce((a, key) => a + pool.pairSeconds.get(key)!, 0);
    if (seconds + next > budgetMinutes * 60) return finish(samples, settings, seconds, k, false);
  }
}

/**
 * A random order of the pool's sweeps in which odd and even pool sweeps alternate, as a real session alternates
 * which server runs first. A plain shuffle can put six pairs of one order among the first eight, and a test whose
 * pairs depend on the order then shows that as a drop (insert in a measured pool: C 7% slower in one order, 1%
 * faster in the other).
 */
function alternatingOrder(pool: PairPool, random: () => number): PairPool['sweeps'] {
  const shuffled = (parity: number) =>
    pool.sweeps
      .filter((_, i) => pool.rounds[i]! % 2 === parity)
      .map((sweep) => ({ sweep, key: random() }))
      .sort((a, b) => a.key - b.key)
      .map((o) => o.sweep);
  const first = random() < 0.5 ? 0 : 1;
  const [a, b] = [shuffled(first), shuffled(1 - first)];
  const order: PairPool['sweeps'] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    order.push(...(a[i] !== undefined ? [a[i]!] : []), ...(b[i] !== undefined ? [b[i]!] : []));
  return order;
}

function finish(
  samples: readonly SampleRecord[],
  settings: VerdictSettings,
  seconds: number,
  pairs: number,
  poolShort: boolean,
): DrawnSession {
  return { verdicts: judgePairedSession(samples, settings, true).verdicts, minutes: seconds / 60, pairs, poolShort };
}

/** "point-query\u00001" as people read it: point-query.t1. */
export function keyLabel(key: string): string {
  const [test, threads] = key.split('\u0000');
  return `${test}.t${threads}`;
}

/**
 * Per test, the noise of one pair over the whole pool, as verdicts measure it (clipped, the order effect taken out).
 */
export function pairNoise(pool: PairPool): Map<string, number> {
  return new Map(
    pool.keys.map((key) => {
      const pairs = pool.sweeps.map((sweep) => sweep.get(key)!);
      return [
        key,
        pairStatistic({
          logRatios: pairs.map((p) => Math.log(p.c.qps / p.b.qps)),
          baselineFirst: pairs.map((p) => p.b.id < p.c.id),
        }).noise,
      ];
    }),
  );
}
