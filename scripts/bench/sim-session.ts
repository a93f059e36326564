// Simulated paired sessions built on a real pool (bench:sim): each sweep is one pool sweep's residuals with a random
// sign, the pool's order effects in the simulated session's order, and a known drop; judged by the real rule.
import { pairStatistic, replayLooks, type PairedJudgement, type SequentialSettings } from '../../src/analysis/index.js';
import type { PairPool } from './paired-pool.js';

export interface SessionShape {
  /** Pairs every test gets at most: what the budget pays for, capped at max_pairs. */
  sweeps: number;
  sweepSeconds: number;
  budgetMinutes: number;
}

export interface PoolModel {
  keys: string[];
  /** Per test: the pool's order-balanced mean log ratio, its order effect (log) and its noise. */
  means: number[];
  orderEffects: number[];
  noise: number[];
  /**
   * residuals[s][j]: pool sweep s, test j: its log ratio less the test's mean and order effect in that pair's order.
   */
  residuals: Float64Array[];
  settings: SequentialSettings;
  shape(budgetMinutes: number): SessionShape;
}

export function poolModel(pool: PairPool, settings: SequentialSettings): PoolModel {
  const stats = pool.keys.map((key) => {
    const pairs = pool.sweeps.map((sweep) => sweep.get(key)!);
    const logRatios = pairs.map((p) => Math.log(p.c.qps / p.b.qps));
    const baselineFirst = pairs.map((p) => p.b.id < p.c.id);
    return { logRatios, baselineFirst, stat: pairStatistic({ logRatios, baselineFirst }) };
  });
  const residuals = pool.sweeps.map((_, s) =>
    Float64Array.from(
      stats,
      ({ logRatios, baselineFirst, stat }) =>
        logRatios[s]! - stat.estimate - (baselineFirst[s] ? stat.orderEffect : -stat.orderEffect),
    ),
  );
  const sweepSeconds = pool.keys.reduce((a, k) => a + pool.pairSeconds.get(k)!, 0);
  return {
    keys: pool.keys,
    means: stats.map((x) => x.stat.estimate),
    orderEffects: stats.map((x) => x.stat.orderEffect),
    noise: stats.map((x) => x.stat.noise),
    residuals,
    settings,
    shape: (budgetMinutes) => {
      const sweeps = Math.min(
        settings.maxPairs,
        Number.isFinite(budgetMinutes) ? Math.floor((budgetMinutes * 60) / sweepSeconds) : settings.maxPairs,
      );
      return { sweeps, sweepSeconds, budgetMinutes: (sweeps * sweepSeconds) / 60 };
    },
  };
}

/**
 * One session: `shape.sweeps` sweeps drawn with replacement from the pool, judged by replayLooks as a finished session
 * of that many sweeps. The replay judges look by look on the first n pairs only and stops where every test is
 * decided, so its verdicts are the ones a running session would have reached, stopping as it would.
 */
export function simulateSession(
  model: PoolModel,
  shape: SessionShape,
  drops: readonly number[],
  random: () => number,
): PairedJudgement[] {
  const tests = model.keys.length;
  const logRatios = Array.from({ length: tests }, () => new Array<number>(shape.sweeps));
  const baselineFirst = Array.from({ length: tests }, () => new Array<boolean>(shape.sweeps));
  for (let k = 0; k < shape.sweeps; k++) {
    const residual = model.residuals[Math.floor(random() * model.residuals.length)]!;
    const sign = random() < 0.5 ? -1 : 1;
    for (let j = 0; j < tests; j++) {
      // A real session's order: roundOrder(sweep + index), B first when that is odd (sweeps count from 1).
      const bFirst = (k + 1 + j) % 2 === 1;
      logRatios[j]![k] =
        Math.log(1 - drops[j]!) + (bFirst ? model.orderEffects[j]! : -model.orderEffects[j]!) + sign * residual[j]!;
      baselineFirst[j]![k] = bFirst;
    }
  }
  const series = model.keys.map((key, j) => ({
    key,
    test: key,
    logRatios: logRatios[j]!,
    baselineFirst: baselineFirst[j]!,
  }));
  // As a session plans its looks for the pairs its budget pays for (session/compare.ts, sessionPlan).
  const { decided } = replayLooks(series, { ...model.settings, maxPairs: shape.sweeps }, true);
  const byKey = new Map(decided.map((d) => [d.key, d]));
  return model.keys.map((k) => byKey.get(k)!);
}
