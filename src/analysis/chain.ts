import { studentQuantile } from './student-t.js';

/** One paired check of a release against the release it was judged against (its last good then), for one test. */
export interface ChainStep {
  release: string;
  baseline: string;
  /** log of the check's relative QPS (C/B). */
  logEstimate: number;
  /** Standard error of logEstimate. */
  logSe: number;
  /** Degrees of freedom of that error; absent (Infinity): a normal error. */
  df?: number;
}

/** A release's relative QPS against its series' base, through the checks that lead back to the base. */
export interface ChainedEstimate {
  release: string;
  relativeQps: number;
  /**
   * Interval at `confidence`, from the summed variances with Student's t at the chain's degrees of freedom (the
   * steps' errors are independent sessions, each with few).
   */
  low: number;
  high: number;
  logEstimate: number;
  logSe: number;
  /** Welch-Satterthwaite degrees of freedom of the summed variances: (sum v)^2 / sum(v^2 / df). */
  df: number;
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
  const chained = new Map<string, ChainedEstimate>();
  const resolve = (release: string, seen: Set<string>): ChainedEstimate | undefined => {
    const done = chained.get(release);
    if (done !== undefined) return done;
    const step = byRelease.get(release);
    if (step === undefined || seen.has(release)) return undefined;
    const below =
      step.baseline === base
        ? { logEstimate: 0, logSe: 0, steps: 0, df: Number.POSITIVE_INFINITY }
        : resolve(step.baseline, new Set([...seen, release]));
    if (below === undefined) return undefined;
    const logEstimate = below.logEstimate + step.logEstimate;
    const logSe = Math.sqrt(below.logSe ** 2 + step.logSe ** 2);
    const df = welchDf([
      { variance: below.logSe ** 2, df: below.df },
      { variance: step.logSe ** 2, df: step.df ?? Number.POSITIVE_INFINITY },
    ]);
    const t = studentQuantile(1 - (1 - confidence) / 2, Math.min(df, 1e6));
    const estimate = {
      release,
      logEstimate,
      logSe,
      df,
      steps: below.steps + 1,
      relativeQps: Math.exp(logEstimate),
      low: Math.exp(logEstimate - t * logSe),
      high: Math.exp(logEstimate + t * logSe),
    };
    chained.set(release, estimate);
    return estimate;
  };
  for (const release of byRelease.keys()) resolve(release, new Set());
  return chained;
}

/**
 * The degrees of freedom of a sum of independent variances, each with its own (Welch-Satterthwaite); Infinity when
 * every part is normal, and at least the smallest part's when one part dominates.
 */
export function welchDf(parts: ReadonlyArray<{ variance: number; df: number }>): number {
  const total = parts.reduce((a, p) => a + p.variance, 0);
  const spread = parts.reduce((a, p) => a + (p.df > 0 && Number.isFinite(p.df) ? p.variance ** 2 / p.df : 0), 0);
  if (total <= 0) return Math.min(...parts.map((p) => p.df));
  return spread > 0 ? total ** 2 / spread : Number.POSITIVE_INFINITY;
}

/**
 * A chained estimate under the threshold: the series may have drifted, to be confirmed by a session against the base.
 */
export function driftSuspected(estimate: Pick<ChainedEstimate, 'relativeQps'>, threshold: number): boolean {
  return estimate.relativeQps < threshold;
}
