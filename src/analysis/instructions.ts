import {
  testKey,
  type FunctionCost,
  type FunctionGrowth,
  type InstructionSide,
  type InstructionVerdict,
  type InstructionVerdictKind,
  type TestFunctionGrowth,
  type TestId,
} from '../model/index.js';
import { functionKey } from './function-key.js';
import type { InstructionEventRecord, InstructionFunctionsInput, InstructionRunRecord } from '../store/index.js';

/**
 * The instructions lane's verdicts (docs/verdicts.md, "Instructions per query"). Counts do not depend on how fast the
 * host is, so there is no test statistic: the repeats' spread stands in for the noise, and a verdict needs the growth
 * past the threshold and past that spread.
 */

/** instructions_threshold and its per-test overrides (instructions_test_thresholds). */
export interface InstructionVerdictSettings {
  threshold: number;
  testThresholds: Readonly<Record<string, number>>;
}

export function instructionThreshold(settings: InstructionVerdictSettings, test: string): number {
  return settings.testThresholds[test] ?? settings.threshold;
}

/** One side's repeats as the verdict reads them: per repeat, their median and relative spread. */
export function instructionSide(perQuery: readonly number[]): InstructionSide {
  if (perQuery.length === 0) throw new RangeError('instructionSide: no repeat');
  const sorted = [...perQuery].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { perQuery: [...perQuery], median, spread: (sorted.at(-1)! - sorted[0]!) / median };
}

/**
 * The verdict on one test from both sides' repeats: regression when C/B is over the threshold and even the spread's
 * most favourable pairing (min C / max B) shows growth; improvement the mirror image; ok when the least favourable
 * pairing (max C / min B) stays within the threshold; unclear otherwise (the spread straddles it).
 */
export function judgeInstructionTest(
  test: TestId,
  baseline: readonly number[],
  candidate: readonly number[],
  threshold: number,
): InstructionVerdict {
  const b = instructionSide(baseline);
  const c = instructionSide(candidate);
  const ratio = c.median / b.median;
  const low = Math.min(...candidate) / Math.max(...baseline);
  const high = Math.max(...candidate) / Math.min(...baseline);
  let kind: InstructionVerdictKind = 'unclear';
  if (ratio > threshold && low > 1) kind = 'regression';
  else if (ratio < 1 / threshold && high < 1) kind = 'improvement';
  else if (high <= threshold && low >= 1 / threshold) kind = 'ok';
  return { test: test.test, threads: test.threads, kind, ratio, low, high, threshold, baseline: b, candidate: c };
}

/** Each counted run's instructions per query. */
export function perQuery(run: Pick<InstructionRunRecord, 'instructions' | 'queries'>): number {
  return run.instructions / run.queries;
}

/**
 * The verdicts of a session's lane: every test with runs on both sides, in the order of its first run. The runs come
 * from the store (instructionRuns of the session).
 */
export function judgeInstructionRuns(
  runs: readonly InstructionRunRecord[],
  settings: InstructionVerdictSettings,
): InstructionVerdict[] {
  const tests = new Map<string, { id: TestId; baseline: number[]; candidate: number[] }>();
  for (const run of runs) {
    const key = testKey(run);
    const entry = tests.get(key) ?? { id: { test: run.test, threads: run.threads }, baseline: [], candidate: [] };
    entry[run.role].push(perQuery(run));
    tests.set(key, entry);
  }
  return [...tests.values()]
    .filter((t) => t.baseline.length > 0 && t.candidate.length > 0)
    .map((t) => judgeInstructionTest(t.id, t.baseline, t.candidate, instructionThreshold(settings, t.id.test)));
}

/**
 * A release against another straight from stored figures, as against the series' base: per test, the release's runs
 * against the other's runs of the same condition key (the store's findInstructionRuns), no chain of checks between.
 * Tests the other has no figure for are left out.
 */
export function judgeAgainstStored(
  release: readonly InstructionRunRecord[],
  other: ReadonlyMap<string, readonly InstructionRunRecord[]>,
  settings: InstructionVerdictSettings,
): InstructionVerdict[] {
  const verdicts: InstructionVerdict[] = [];
  for (const runs of groupByTest(release).values()) {
    const first = runs[0]!;
    const theirs = other.get(first.conditionKey) ?? [];
    if (theirs.length === 0) continue;
    verdicts.push(
      judgeInstructionTest(first, theirs.map(perQuery), runs.map(perQuery), instructionThreshold(settings, first.test)),
    );
  }
  return verdicts;
}

function groupByTest(runs: readonly InstructionRunRecord[]): Map<string, InstructionRunRecord[]> {
  const groups = new Map<string, InstructionRunRecord[]>();
  for (const run of runs) groups.set(testKey(run), [...(groups.get(testKey(run)) ?? []), run]);
  return groups;
}

/**
 * Where it grew: both sides' function tables (per query) joined by function name without its parameter list
 * (functionKey: a signature that changed between the releases is still one function; overloads add up), largest
 * inclusive growth first (then exclusive), a function absent on a side counting 0 there and marked `unlisted`. A row
 * keeps the whole name when both sides give the function the one same name, else the key with "(…)". The first
 * `limit` rows.
 */
export function functionGrowth(
  baseline: readonly FunctionCost[],
  candidate: readonly FunctionCost[],
  limit = 20,
): FunctionGrowth[] {
  const rows = new Map<string, FunctionGrowth & { names: Set<string>; sides: Set<'baseline' | 'candidate'> }>();
  const add = (f: FunctionCost, side: 'baseline' | 'candidate'): void => {
    const key = functionKey(f.name);
    let r = rows.get(key);
    if (r === undefined) {
      r = {
        name: key,
        object: f.object,
        baselineInclusive: 0,
        candidateInclusive: 0,
        baselineExclusive: 0,
        candidateExclusive: 0,
        inclusiveGrowth: 0,
        exclusiveGrowth: 0,
        names: new Set(),
        sides: new Set(),
      };
      rows.set(key, r);
    }
    r.names.add(f.name);
    r.sides.add(side);
    if (side === 'baseline') {
      r.baselineInclusive += f.inclusive;
      r.baselineExclusive += f.exclusive;
    } else {
      r.candidateInclusive += f.inclusive;
      r.candidateExclusive += f.exclusive;
    }
  };
  for (const f of baseline) add(f, 'baseline');
  for (const f of candidate) add(f, 'candidate');
  return [...rows.values()]
    .map(({ names, sides, ...r }) => ({
      ...r,
      name: names.size === 1 ? [...names][0]! : `${r.name}(…)`,
      inclusiveGrowth: r.candidateInclusive - r.baselineInclusive,
      exclusiveGrowth: r.candidateExclusive - r.baselineExclusive,
      ...(sides.has('baseline') ? {} : { unlisted: 'baseline' as const }),
      ...(sides.has('candidate') ? {} : { unlisted: 'candidate' as const }),
    }))
    .sort((a, b) => b.inclusiveGrowth - a.inclusiveGrowth || b.exclusiveGrowth - a.exclusiveGrowth)
    .slice(0, limit);
}

/** How many functions a report lists per test: enough to see where it grew, few enough to read. */
export const GROWN_FUNCTIONS = 10;

/**
 * Where each test of a session grew: per verdict (in their order) with both sides' function tables, the functions that
 * grew most from B to C. Tests with no table on a side (perf names no functions; a lane that stopped half way) are
 * left out.
 */
export function sessionFunctionGrowth(
  verdicts: readonly TestId[],
  tables: readonly InstructionFunctionsInput[],
  limit = GROWN_FUNCTIONS,
): TestFunctionGrowth[] {
  const tableOf = (test: TestId, role: InstructionFunctionsInput['role']) =>
    tables.find((t) => t.role === role && testKey(t) === testKey(test))?.functions;
  return verdicts.flatMap((v) => {
    const [baseline, candidate] = [tableOf(v, 'baseline'), tableOf(v, 'candidate')];
    if (baseline === undefined || candidate === undefined) return [];
    return [{ test: v.test, threads: v.threads, functions: functionGrowth(baseline, candidate, limit) }];
  });
}

/** What one check does to the instructions events of its upstream (as planEvents does for the QPS lane's). */
export interface InstructionEventPlan {
  /** Tests past the threshold with no open instructions event: each opens one, kind regression or drift. */
  opened: Array<{ verdict: InstructionVerdict; kind: 'regression' | 'drift' }>;
  /** Open events this check found recovered: fixed by this release. */
  fixed: InstructionEventRecord[];
  /** Tests still past the threshold with an event open: it goes on, nobody is emailed again. */
  continuing: InstructionVerdict[];
}

/**
 * A regression event follows the verdict against the check's baseline (the last good release); a drift event the
 * verdict against the series' base, compared directly from stored figures. A regression opens an event before a
 * drift does; an unclear verdict neither opens nor fixes. An event fixed by this check frees its test for a new one.
 */
export function planInstructionEvents(
  verdicts: readonly InstructionVerdict[],
  againstBase: readonly InstructionVerdict[],
  open: readonly InstructionEventRecord[],
): InstructionEventPlan {
  const byTest = (list: readonly InstructionVerdict[]) => new Map(list.map((v) => [testKey(v), v]));
  const last = byTest(verdicts);
  const base = byTest(againstBase);
  const recovered = (v: InstructionVerdict | undefined): boolean => v?.kind === 'ok' || v?.kind === 'improvement';
  const fixed = open.filter((e) => recovered((e.kind === 'regression' ? last : base).get(testKey(e))));
  const stillOpen = new Set(open.filter((e) => !fixed.includes(e)).map(testKey));
  const opened: InstructionEventPlan['opened'] = [];
  const continuing: InstructionVerdict[] = [];
  for (const key of new Set([...last.keys(), ...base.keys()])) {
    const grew =
      last.get(key)?.kind === 'regression'
        ? { verdict: last.get(key)!, kind: 'regression' as const }
        : base.get(key)?.kind === 'regression'
          ? { verdict: base.get(key)!, kind: 'drift' as const }
          : undefined;
    if (grew === undefined) continue;
    if (stillOpen.has(key)) continuing.push(grew.verdict);
    else opened.push(grew);
  }
  return { opened, fixed, continuing };
}
