// Simulated paired sessions built on a real pool (bench:sim): each sweep is one pool sweep's residuals with a random
// sign, the pool's order effects in the simulated session's order, an offset per test for the pair of server
// instances the sweep ran on, and a known drop; judged by the rule as a session runs it.
import {
  instanceBlocks,
  lookPlan,
  mulberry32,
  pairStatistic,
  replayLooks,
  type LookPlan,
  type PairedJudgement,
  type PairSeries,
} from '../../src/analysis/index.js';
import { RESTART_SECONDS, RUN_OVERHEAD_SECONDS } from '../../src/session/index.js';
import type { PairPool } from './paired-pool.js';
import { replayLooks as replayBefore } from './rule-before.js';

export interface SimSettings {
  alpha: number;
  confidence: number;
  maxPairs: number;
  threshold: number;
  /** instance_seconds: runs' seconds a pair of instances measures before the restart. */
  instanceSeconds: number;
  /** The sd of one instance's offset per test (log units): two instances differ by sqrt(2) x it. */
  instanceSd: number;
}

export interface SessionShape {
  /** Minutes of pairs the session may spend; Infinity: max_pairs alone stops it. */
  budgetMinutes: number;
  /** Sweeps the rule of before gets (every test in every sweep): what the budget pays for, capped at max_pairs. */
  sweeps: number;
  /** Blocks the new rule plans its looks on: the pre-flight's figure for this budget. */
  plannedBlocks: number;
  sweepSeconds: number;
}

export interface PoolModel {
  keys: string[];
  /** Per test: the pool's order-balanced mean log ratio, its order effect (log) and its noise. */
  means: number[];
  orderEffects: number[];
  noise: number[];
  /** Per test: the wall seconds of a pair, and the seconds of its two runs (what instance_seconds counts). */
  pairSeconds: number[];
  runSeconds: number[];
  /**
   * residuals[s][j]: pool sweep s, test j: its log ratio less the test's mean and order effect in that pair's order.
   */
  residuals: Float64Array[];
  settings: SimSettings;
  shape(budgetMinutes: number): SessionShape;
}

export function poolModel(pool: PairPool, settings: SimSettings): PoolModel {
  const stats = pool.keys.map((key) => {
    const pairs = pool.sweeps.map((sweep) => sweep.get(key)!);
    const logRatios = pairs.map((p) => Math.log(p.c.qps / p.b.qps));
    const baselineFirst = pairs.map((p) => p.b.id < p.c.id);
    const runSeconds = Math.round(pairs[0]!.b.seconds) + Math.round(pairs[0]!.c.seconds);
    return { logRatios, baselineFirst, runSeconds, stat: pairStatistic({ logRatios, baselineFirst }) };
  });
  const residuals = pool.sweeps.map((_, s) =>
    Float64Array.from(
      stats,
      ({ logRatios, baselineFirst, stat }) =>
        logRatios[s]! - stat.estimate - (baselineFirst[s] ? stat.orderEffect : -stat.orderEffect),
    ),
  );
  return modelOf(
    {
      keys: pool.keys,
      means: stats.map((x) => x.stat.estimate),
      orderEffects: stats.map((x) => x.stat.orderEffect),
      noise: stats.map((x) => x.stat.noise),
      pairSeconds: pool.keys.map((k) => pool.pairSeconds.get(k)!),
      runSeconds: stats.map((x) => x.runSeconds),
      residuals,
    },
    settings,
  );
}

/** What a synthetic pool is made of: no server, pairs drawn from a known distribution (bench:sim --synthetic). */
export interface SyntheticPool {
  /** The sd of a pair's log ratio. */
  noise: number;
  tests: number;
  /** Seconds of each test's run: a pair costs two runs with their overhead, as the pre-flight counts them. */
  seconds: number;
  /** The share of pairs hit by a hiccup: an extra normal of HICCUP_SIZE times the noise. */
  hiccups: number;
  /** Sweeps of residuals to draw the sessions' sweeps from. */
  sweeps: number;
  seed: number;
}

/** A hiccup's sd, in units of the pair noise. */
export const HICCUP_SIZE = 5;

/**
 * A pool of normal pairs, independent across tests and sweeps, no order effect, with a share of hiccups: a known
 * noise to ask what the rules need, where a real pool of this host is too loud or too short to say.
 */
export function syntheticModel(pool: SyntheticPool, settings: SimSettings): PoolModel {
  const random = mulberry32(pool.seed);
  const residuals = Array.from({ length: pool.sweeps }, () =>
    Float64Array.from({ length: pool.tests }, () => {
      const hiccup = random() < pool.hiccups ? HICCUP_SIZE * normal(random) : 0;
      return pool.noise * (normal(random) + hiccup);
    }),
  );
  return modelOf(
    {
      keys: Array.from({ length: pool.tests }, (_, j) => `normal-${j + 1}\u00001`),
      means: new Array<number>(pool.tests).fill(0),
      orderEffects: new Array<number>(pool.tests).fill(0),
      noise: new Array<number>(pool.tests).fill(pool.noise),
      pairSeconds: new Array<number>(pool.tests).fill(2 * (pool.seconds + RUN_OVERHEAD_SECONDS)),
      runSeconds: new Array<number>(pool.tests).fill(2 * pool.seconds),
      residuals,
    },
    settings,
  );
}

function modelOf(parts: Omit<PoolModel, 'settings' | 'shape'>, settings: SimSettings): PoolModel {
  const sweepSeconds = parts.pairSeconds.reduce((a, v) => a + v, 0);
  const sweepRun = parts.runSeconds.reduce((a, v) => a + v, 0);
  const perBlock = Math.max(1, Math.ceil(settings.instanceSeconds / sweepRun - 1e-9));
  return {
    ...parts,
    settings,
    shape: (budgetMinutes) => {
      const limited = Number.isFinite(budgetMinutes);
      const sweeps = Math.min(settings.maxPairs, limited ? Math.floor((budgetMinutes * 60) / sweepSeconds) : Infinity);
      // As the pre-flight plans it (session/preflight.ts): blocks with a restart between each two.
      const blockSeconds = perBlock * sweepSeconds;
      const budgetBlocks = limited
        ? Math.max(1, Math.floor((budgetMinutes * 60 + RESTART_SECONDS) / (blockSeconds + RESTART_SECONDS) + 1e-9))
        : Infinity;
      const plannedBlocks = Math.min(budgetBlocks, Math.ceil(settings.maxPairs / perBlock));
      return { budgetMinutes, sweeps, plannedBlocks, sweepSeconds };
    },
  };
}

/** A normal draw (Box-Muller) from the session's generator. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One sweep's log ratio of test j: the drop, the order effect in this pair's order, a pool residual, an offset. */
export function pairValue(
  model: PoolModel,
  j: number,
  drop: number,
  bFirst: boolean,
  residual: { values: Float64Array; sign: number },
  offset: number,
): number {
  const order = bFirst ? model.orderEffects[j]! : -model.orderEffects[j]!;
  return Math.log(1 - drop) + order + residual.sign * residual.values[j]! + offset;
}

/**
 * What one simulated session draws, the same whichever rule judges it: sweep k's residuals (a pool sweep with one
 * sign for all its tests) and block b's offsets between instances (C's less B's, per test). Each is drawn on first
 * use from its own stream and kept, so two rules that take different numbers of sweeps still see the same sweep k
 * and the same block b: the rule before, on one pair of instances, sees block 0's offsets throughout.
 */
export interface SessionDraws {
  sweep(k: number): { values: Float64Array; sign: number };
  offsets(block: number): number[];
}

/** An integer hash of a seed and an index, so each session's streams start apart (a finaliser of murmur3). */
function mix(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Session `index` of the scenario seeded `seed`: the same draws on every call with the same three. */
export function sessionDraws(model: PoolModel, seed: number, index: number): SessionDraws {
  const session = mix(seed, index);
  const sweepStream = mulberry32(mix(session, 1));
  const offsetStream = mulberry32(mix(session, 2));
  const sweeps: Array<{ values: Float64Array; sign: number }> = [];
  const blocks: number[][] = [];
  const sd = model.settings.instanceSd;
  return {
    sweep(k) {
      while (sweeps.length < k)
        sweeps.push({
          values: model.residuals[Math.floor(sweepStream() * model.residuals.length)]!,
          sign: sweepStream() < 0.5 ? -1 : 1,
        });
      return sweeps[k - 1]!;
    },
    offsets(block) {
      while (blocks.length <= block)
        blocks.push(model.keys.map(() => sd * (normal(offsetStream) - normal(offsetStream))));
      return blocks[block]!;
    },
  };
}

/**
 * One session under the rule as qpswatch runs it now: new instances for every block (instance_seconds of runs), a
 * look when a block closes at a planned look, decided tests stop getting pairs, and the budget counts each pair's
 * seconds and each restart. Judged by replayLooks, the session's own rule.
 */
export function simulateSession(
  model: PoolModel,
  shape: SessionShape,
  drops: readonly number[],
  draws: SessionDraws,
  plan?: LookPlan,
): PairedJudgement[] {
  const { settings } = model;
  const tests = model.keys.length;
  const series: PairSeries[] = model.keys.map((key) => ({
    key,
    test: key,
    logRatios: [],
    baselineFirst: [],
    blocks: [],
  }));
  const samples: Array<{ round: number; seconds: number }> = [];
  const rule = {
    alpha: settings.alpha,
    confidence: settings.confidence,
    plannedBlocks: shape.plannedBlocks,
    thresholdOf: () => settings.threshold,
    ...(plan !== undefined ? { plan } : {}),
  };
  const budgetSeconds = shape.budgetMinutes * 60;
  let open = model.keys.map((_, j) => j);
  let seconds = 0;
  let offsets = draws.offsets(0);
  let instances = 1;
  let closed = 0;
  let nextLook = 1;
  for (let sweep = 1; sweep <= settings.maxPairs; sweep++) {
    if (sweep > 1 && closed >= instances) {
      seconds += RESTART_SECONDS;
      offsets = draws.offsets(instances);
      instances++;
    }
    const residual = draws.sweep(sweep);
    for (const j of open) {
      // A real session's order: roundOrder(sweep + index), B first when that is odd (sweeps count from 1).
      const bFirst = (sweep + j) % 2 === 1;
      const s = series[j]!;
      (s.logRatios as number[]).push(pairValue(model, j, drops[j]!, bFirst, residual, offsets[j]!));
      (s.baselineFirst as boolean[]).push(bFirst);
      (s.blocks as number[]).push(instances - 1);
      samples.push({ round: sweep, seconds: model.runSeconds[j]! });
      seconds += model.pairSeconds[j]!;
    }
    closed = instanceBlocks(samples, settings.instanceSeconds).closed;
    if (closed >= instances && closed >= nextLook) {
      const replay = replayLooks(series, rule, false, closed);
      const pending = new Set(replay.pending);
      open = open.filter((j) => pending.has(model.keys[j]!));
      nextLook = replay.nextBlocks;
    }
    if (open.length === 0) break;
    const next = open.reduce((a, j) => a + model.pairSeconds[j]!, 0) + (closed >= instances ? RESTART_SECONDS : 0);
    if (seconds + next > budgetSeconds) break;
  }
  const { decided } = replayLooks(series, rule, true, closed);
  const byKey = new Map(decided.map((d) => [d.key, d]));
  return Array.from({ length: tests }, (_, j) => byKey.get(model.keys[j]!)!);
}

/**
 * One session under the rule before issue 30: one pair of instances for the whole session (one offset per test),
 * every test in every sweep while any is open, looks at 8, 12, 18, ... pairs planned for the budget's sweeps, judged
 * by that rule's replay (scripts/bench/rule-before.ts).
 */
export function simulateSessionBefore(
  model: PoolModel,
  shape: SessionShape,
  drops: readonly number[],
  draws: SessionDraws,
): Array<{ kind: string; pairs: number; relativeQps: number; logSe: number }> {
  const { settings } = model;
  const rule = {
    alpha: settings.alpha,
    confidence: settings.confidence,
    maxPairs: shape.sweeps,
    thresholdOf: () => settings.threshold,
  };
  const { decided } = replayBefore(beforeSeries(model, shape, drops, draws), rule, true);
  const byKey = new Map(decided.map((d) => [d.key, d]));
  return model.keys.map((k) => byKey.get(k)!);
}

/** The pairs of a session under the rule before: every test in each of the budget's sweeps, on block 0's instances. */
export function beforeSeries(
  model: PoolModel,
  shape: SessionShape,
  drops: readonly number[],
  draws: SessionDraws,
): Array<{ key: string; test: string; logRatios: number[]; baselineFirst: boolean[] }> {
  const offsets = draws.offsets(0);
  return model.keys.map((key, j) => {
    const logRatios: number[] = [];
    const baselineFirst: boolean[] = [];
    for (let sweep = 1; sweep <= shape.sweeps; sweep++) {
      // The order a real session runs, as simulateSession has it: B first when sweep + test index is odd.
      const bFirst = (sweep + j) % 2 === 1;
      logRatios.push(pairValue(model, j, drops[j]!, bFirst, draws.sweep(sweep), offsets[j]!));
      baselineFirst.push(bFirst);
    }
    return { key, test: key, logRatios, baselineFirst };
  });
}

/** The looks the new rule plans for a shape, for the figures' header. */
export function plannedLooks(model: PoolModel, shape: SessionShape): number[] {
  return lookPlan(shape.plannedBlocks, model.keys.length, model.settings.alpha).blocks;
}
