import { testKey, type TestId } from '../model/index.js';
import type { CheckRecord } from '../store/index.js';
import { chainToBase, type ChainedEstimate, type ChainStep } from './chain.js';
import { newestValidChecks } from './newest-check.js';
import { studentQuantile } from './student-t.js';

/**
 * The chained series of a series' releases against its base (docs/verdicts.md, "Against the base: chained
 * estimates"): which checks are chained, and where a step began in each test's chained series.
 */

/**
 * One check as the chain reads it: the release, what it was judged against, and its verdicts (a store VerdictRecord
 * fits).
 */
export interface ChainCheck {
  releaseId: number;
  baselineReleaseId: number;
  verdicts: ReadonlyArray<
    TestId & { relativeQps: number; logSe?: number | null; logSeDf?: number | null; pairs?: number | null }
  >;
}

/**
 * A release's chained estimate against the base, with the release its chain goes through (the base's id for a direct
 * check).
 */
export interface ChainLink extends ChainedEstimate {
  releaseId: number;
  parentId: number;
}

/**
 * The checks the chain may use, of the checks given (already limited to one host by the caller): for each release,
 * its newest valid check and, when it has one, its newest valid check directly against the base, which the chain
 * prefers (it re-anchors). Invalid checks never count (newestValidChecks).
 */
export function chainCandidates<
  C extends Pick<CheckRecord, 'invalid' | 'sessionId' | 'releaseId' | 'baselineReleaseId'>,
>(checks: readonly C[], baseReleaseId: number): C[] {
  const newest = newestValidChecks(
    checks,
    (c) => `${c.releaseId}\u0000${c.baselineReleaseId === baseReleaseId ? 'base' : 'chain'}`,
  );
  return [...newest.values()];
}

/**
 * Each test's chained estimates, by testKey then release id. Per release and test the step is the check against the
 * base when there is one with a standard error, else the other check's; a verdict without logSe (stored before
 * verdicts carried it) is no step, so neither that release nor a release chained through it has an estimate.
 */
export function chainByTest(
  baseReleaseId: number,
  checks: readonly ChainCheck[],
  confidence: number,
): Map<string, Map<number, ChainLink>> {
  const steps = new Map<string, Map<number, { step: ChainStep; parentId: number }>>();
  for (const check of checks) {
    for (const v of check.verdicts) {
      if (v.logSe === null || v.logSe === undefined || !(v.relativeQps > 0)) continue;
      const key = testKey(v);
      const byRelease = steps.get(key) ?? new Map<number, { step: ChainStep; parentId: number }>();
      steps.set(key, byRelease);
      const known = byRelease.get(check.releaseId);
      if (known !== undefined && known.parentId === baseReleaseId) continue;
      const step = {
        release: String(check.releaseId),
        baseline: String(check.baselineReleaseId),
        logEstimate: Math.log(v.relativeQps),
        logSe: v.logSe,
        ...chainStepDf(v),
      };
      byRelease.set(check.releaseId, { step, parentId: check.baselineReleaseId });
    }
  }
  const out = new Map<string, Map<number, ChainLink>>();
  for (const [key, byRelease] of steps) {
    // One step per release, chosen above, so the parent of every chained release is known.
    const chained = chainToBase(
      String(baseReleaseId),
      [...byRelease.values()].map((s) => s.step),
      confidence,
    );
    const links = new Map<number, ChainLink>();
    for (const [releaseId, { parentId }] of byRelease) {
      const estimate = chained.get(String(releaseId));
      if (estimate !== undefined) links.set(releaseId, { ...estimate, releaseId, parentId });
    }
    out.set(key, links);
  }
  return out;
}

/**
 * A check's degrees of freedom: the verdict's own (logSeDf: paired, its blocks of server instances less 1), and for a
 * verdict stored before it was kept, its pairs less 2 (the rule of then took its error from the two orders' means);
 * never less than 1. Neither: a normal error.
 */
export function chainStepDf(v: { logSeDf?: number | null; pairs?: number | null }): { df?: number } {
  if (typeof v.logSeDf === 'number') return { df: Math.max(1, v.logSeDf) };
  return typeof v.pairs === 'number' ? { df: Math.max(1, v.pairs - 2) } : {};
}

/**
 * The base as a link of its own chain: relative QPS 1 exactly, no error, so a step right after the base can be marked.
 */
export function baseLink(baseReleaseId: number): ChainLink {
  return {
    release: String(baseReleaseId),
    releaseId: baseReleaseId,
    parentId: -1,
    relativeQps: 1,
    low: 1,
    high: 1,
    logEstimate: 0,
    logSe: 0,
    df: Number.POSITIVE_INFINITY,
    steps: 0,
  };
}

/** The variance two chained releases share: that of the release where their chains meet (0 at the base). */
function sharedVariance(a: ChainLink, b: ChainLink, links: ReadonlyMap<number, ChainLink>): number {
  const onPathOfA = new Set<number>();
  for (let at: ChainLink | undefined = a; at !== undefined; at = links.get(at.parentId)) onPathOfA.add(at.releaseId);
  for (let at: ChainLink | undefined = b; at !== undefined; at = links.get(at.parentId))
    if (onPathOfA.has(at.releaseId)) return at.logSe ** 2;
  return 0;
}

/** A step between two neighbouring versions: its direction, its size (a ratio) and how many standard errors it is. */
export interface ChainStepMark {
  direction: 'down' | 'up';
  ratio: number;
  standardErrors: number;
}

/**
 * The two tails the step rule holds a jump to: 1 in 370, a normal variable's past 3 standard errors, at Student's t
 * of the jump's own degrees of freedom (with the normal's 3 it was 1 in 42 at 6 degrees of freedom). What it marks in
 * fact is bench:sim's "step rule at no drop" (docs/verdicts.md, "Where a step began"): more, since a test stopped at
 * a look spreads wider than its error says.
 */
export const STEP_FALSE_MARK_RATE = 1 / 370;

/** How many standard errors a jump with `df` degrees of freedom must be to be marked (3 for a normal error). */
export function stepStandardErrors(df: number): number {
  return studentQuantile(1 - STEP_FALSE_MARK_RATE / 2, Math.min(Math.max(df, 1), 1e6));
}

/**
 * Where a step began in one test's chained series (docs/verdicts.md, "Where a step began"): `links` in version order
 * (null where a version has no chained estimate, which is skipped). Between each two neighbouring chained versions,
 * the jump is the difference of their log estimates; its variance is the two variances less twice the part their
 * chains share, so it is the variance of the checks between them alone. The later version is marked when the jump is
 * at least stepStandardErrors(df) standard errors (1 false mark in 370 boundaries) and at least half the threshold's
 * margin (1 - threshold) in size.
 * Aligned with `links`; null where no step began.
 */
export function chainSteps(
  links: ReadonlyArray<ChainLink | null>,
  all: ReadonlyMap<number, ChainLink>,
  threshold: number,
): Array<ChainStepMark | null> {
  const minimumStep = (1 - threshold) / 2;
  const marks: Array<ChainStepMark | null> = links.map(() => null);
  let previous: ChainLink | undefined;
  links.forEach((link, index) => {
    if (link === null) return;
    if (previous !== undefined) {
      const jump = link.logEstimate - previous.logEstimate;
      const variance = link.logSe ** 2 + previous.logSe ** 2 - 2 * sharedVariance(link, previous, all);
      const se = Math.sqrt(Math.max(variance, 0));
      const ratio = Math.exp(jump);
      const standardErrors = se > 0 ? Math.abs(jump) / se : Number.POSITIVE_INFINITY;
      // The jump's error is that of the checks between the two versions: at most the fewer degrees of freedom.
      const df = Math.min(link.df, previous.df);
      if (standardErrors >= stepStandardErrors(df) && Math.abs(ratio - 1) >= minimumStep)
        marks[index] = { direction: jump < 0 ? 'down' : 'up', ratio, standardErrors };
    }
    previous = link;
  });
  return marks;
}
