import { mulberry32 } from './random.js';

/**
 * One run of a target in a session: the QPS of every test (keyed "name.tN") measured on one fresh server.
 * Runs are the unit that is exchangeable under "no difference": all tests of a run share its server start,
 * its datadir copy and its moment on the host, so labels are permuted per run, never per test.
 */
export type Run = ReadonlyMap<string, number>;

export interface PermutationResult {
  /** Per test: the family-wise p-value that C is slower than B (small means a real drop). */
  slower: Map<string, number>;
  /** Per test: the family-wise p-value that C is faster than B. */
  faster: Map<string, number>;
  /** How many relabelings the p-values rest on; the smallest possible p-value is 1 / permutations. */
  permutations: number;
  exhaustive: boolean;
}

const MAX_PERMUTATIONS = 20_000;

/**
 * Westfall–Young max-T randomization test on log QPS. For every relabeling of the 2R runs into
 * R "baseline" and R "candidate" runs, the largest drop over all tests is noted; a test's p-value is the share of
 * relabelings whose largest drop is at least the drop seen. This controls the chance of any false alarm in the
 * session (the family-wise error rate), not per test, and keeps the correlation between tests of one run.
 */
export function maxTPermutationTest(baseline: readonly Run[], candidate: readonly Run[], seed = 1): PermutationResult {
  const runs = [...baseline, ...candidate];
  const tests = commonTests(runs);
  const observed = logRatios(tests, baseline, candidate);
  const labelings = labelingsOf(runs.length, baseline.length, seed);
  const slowerCounts = new Map(tests.map((t) => [t, 0]));
  const fasterCounts = new Map(tests.map((t) => [t, 0]));
  for (const inB of labelings.sets) {
    const b = runs.filter((_, i) => inB.has(i));
    const c = runs.filter((_, i) => !inB.has(i));
    const ratios = logRatios(tests, b, c);
    const worstDrop = Math.max(...tests.map((t) => -ratios.get(t)!));
    const bestGain = Math.max(...tests.map((t) => ratios.get(t)!));
    for (const t of tests) {
      if (worstDrop >= -observed.get(t)! - 1e-12) slowerCounts.set(t, slowerCounts.get(t)! + 1);
      if (bestGain >= observed.get(t)! - 1e-12) fasterCounts.set(t, fasterCounts.get(t)! + 1);
    }
  }
  const n = labelings.sets.length;
  const share = (counts: Map<string, number>): Map<string, number> => new Map([...counts].map(([t, k]) => [t, k / n]));
  return {
    slower: share(slowerCounts),
    faster: share(fasterCounts),
    permutations: n,
    exhaustive: labelings.exhaustive,
  };
}

/**
 * The smallest p-value the test can give with `rounds` runs of each target: one over the relabelings it counts (all
 * ways to split the 2R runs when there are few enough, else the MAX_PERMUTATIONS drawn). A verdict needs a p-value
 * at or under alpha, so fewer rounds than that can never flag a test: 2 rounds give 1/6, 5 rounds 1/252.
 */
export function smallestPValue(rounds: number): number {
  return 1 / Math.min(binomial(2 * rounds, rounds), MAX_PERMUTATIONS);
}

/** The fewest rounds whose smallest p-value reaches alpha; undefined when no number of rounds does. */
export function roundsForAlpha(alpha: number): number | undefined {
  if (alpha < 1 / MAX_PERMUTATIONS) return undefined;
  let rounds = 1;
  while (smallestPValue(rounds) > alpha) rounds++;
  return rounds;
}

function commonTests(runs: readonly Run[]): string[] {
  const [first, ...rest] = runs;
  if (first === undefined) return [];
  return [...first.keys()].filter((t) => rest.every((r) => r.has(t)));
}

/**
 * Per run, below this spread of log QPS (1%) a test is treated as this steady: a test that happened to vary by
 * 0.1% would otherwise turn a tiny shift into a huge statistic and dominate the maximum over tests.
 */
const MIN_LOG_SD = 0.01;

/**
 * The statistic is Welch's t of log QPS: the difference of mean log QPS (the log of the ratio of geometric means)
 * over its standard error. Studentized, every test is on one scale, so the maximum over tests is not always the
 * noisiest test's, and a clean drop on a steady test stays significant next to a test that varies by 50%.
 * The reported relative QPS stays the ratio of medians; the test uses means because medians ignore which runs
 * sit at the extremes, so many relabelings tie with the one observed and the test loses its power at few runs.
 */
function logRatios(tests: readonly string[], b: readonly Run[], c: readonly Run[]): Map<string, number> {
  return new Map(tests.map((t) => [t, studentized(logs(b, t), logs(c, t))]));
}

function logs(runs: readonly Run[], test: string): number[] {
  return runs.map((r) => Math.log(r.get(test)!));
}

function studentized(b: readonly number[], c: readonly number[]): number {
  const error = Math.sqrt(
    Math.max(variance(b), MIN_LOG_SD ** 2) / b.length + Math.max(variance(c), MIN_LOG_SD ** 2) / c.length,
  );
  return (mean(c) - mean(b)) / error;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, v) => a + v, 0) / values.length;
}

function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1);
}

/** Every way to pick k of n runs as baseline when there are few enough; a seeded sample otherwise. */
function labelingsOf(n: number, k: number, seed: number): { sets: Set<number>[]; exhaustive: boolean } {
  if (binomial(n, k) <= MAX_PERMUTATIONS) return { sets: combinations(n, k).map((c) => new Set(c)), exhaustive: true };
  const random = mulberry32(seed);
  const sets = [new Set(Array.from({ length: k }, (_, i) => i))];
  while (sets.length < MAX_PERMUTATIONS) sets.push(new Set(shuffle(n, random).slice(0, k)));
  return { sets, exhaustive: false };
}

export function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, chosen: number[]): void => {
    if (chosen.length === k) {
      out.push([...chosen]);
      return;
    }
    for (let i = start; i < n; i++) pick(i + 1, [...chosen, i]);
  };
  pick(0, []);
  return out;
}

function shuffle(n: number, random: () => number): number[] {
  const items = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
