import { studentQuantile } from './student-t.js';

/** One paired check of a release against the release it was judged against (its last good then), for one test. */
export interface ChainStep {
  release: string;
  baseline: string;
  /** log of the check's relative QPS (C/B). */
  logEstimate: number;
  /** Standard error of logEstimate. */
  logSe: number;
}

/** A release's relative QPS against its series' base, through the checks that lead back to the base. */
export interface ChainedEstimate {
  release: string;
  relativeQps: number;
  /** Interval at `confidence`, from the summed variances (normal: the steps' errors are independent sessions). */
  low: number;
  high: number;
  logEstimate: number;
  logSe: number;
  /** Checks on the way back to the base: 1 for a direct session against the base. */
  steps: number;
}

/**
 * Chains checks back to the base release: the relative QPS of R against the base is the product of the checks on the
 * way (R against its last good L, L against its own, ... down to the base), so the log estimates add. The sessions
 * are independent, so their variances add too. Where a release has a check directly against the base, that one is
 * used: it re-anchors the chain and carries no error from the steps before. A release whose checks do not lead back
 * to the base has no chained estimate.
 */
export function chainToBase(
  base: string,
  steps: readonly ChainStep[],
  confidence: number,
): Map<string, ChainedEstimate> {
  const byRelease = new Map<string, ChainStep>();
  for (const step of steps) {
    const known = byRelease.get(step.release);
    // A direct check against the base wins over a step through another release.
    if (known === undefined || (step.baseline === base && known.baseline !== base)) byRelease.set(step.release, step);
  }
  // The normal quantile: each step's error is already a standard error, with its own session's degrees of freedom.
  const z = studentQuantile(1 - (1 - confidence) / 2, 1e6);
  const chained = new Map<string, ChainedEstimate>();
  const resolve = (release: string, seen: Set<string>): ChainedEstimate | undefined => {
    const done = chained.get(release);
    if (done !== undefined) return done;
    const step = byRelease.get(release);
    if (step === undefined || seen.has(release)) return undefined;
    const below =
      step.baseline === base
        ? { logEstimate: 0, logSe: 0, steps: 0 }
        : resolve(step.baseline, new Set([...seen, release]));
    if (below === undefined) return undefined;
    const logEstimate = below.logEstimate + step.logEstimate;
    const logSe = Math.sqrt(below.logSe ** 2 + step.logSe ** 2);
    const estimate = {
      release,
      logEstimate,
      logSe,
      steps: below.steps + 1,
      relativeQps: Math.exp(logEstimate),
      low: Math.exp(logEstimate - z * logSe),
      high: Math.exp(logEstimate + z * logSe),
    };
    chained.set(release, estimate);
    return estimate;
  };
  for (const release of byRelease.keys()) resolve(release, new Set());
  return chained;
}

/**
 * A chained estimate under the threshold: the series may have drifted, to be confirmed by a session against the base.
 */
export function driftSuspected(estimate: Pick<ChainedEstimate, 'relativeQps'>, threshold: number): boolean {
  return estimate.relativeQps < threshold;
}
