import type { TestId } from './tests.js';
import type { InstructionVerdictKind } from './instructions.js';

/**
 * What a session decided for one test (docs/verdicts.md). slower: significantly slower (the interval ends under 1),
 * but not shown to be past the threshold; unstable: the session could not tell.
 */
export const verdictKinds = ['ok', 'regression', 'improvement', 'slower', 'unstable'] as const;
export type VerdictKind = (typeof verdictKinds)[number];

/** The kinds that decide a test in the release's favour; every other kind leaves its check inconclusive. */
export const conclusiveKinds: readonly VerdictKind[] = ['ok', 'improvement'];

/**
 * The one rule of last good (docs/verdicts.md): a check is conclusive, so its release may become last good, only when
 * every test is ok or improvement, and the instructions lane found no regression. A regression, a slower or an
 * unstable test leaves it not last good, whatever the estimate; a person can still accept the release (triage
 * accept). The store applies it as it records a check.
 */
export function isConclusive(
  kinds: readonly VerdictKind[],
  instructionKinds: readonly InstructionVerdictKind[] = [],
): boolean {
  // An instructions regression keeps the release from last good as a QPS regression does (docs/verdicts.md); an
  // unclear count does not: the QPS lane still judged the test.
  return kinds.every((kind) => conclusiveKinds.includes(kind)) && !instructionKinds.includes('regression');
}

/**
 * A per-op figure of C that grew over B: part of the hint of why a test got slower. A figure of waiting (the figure
 * table's hint 'waiting', off-CPU time) is given only when no resource grew: the time went to waiting.
 */
export interface HintFigure {
  /** the figure's table header, e.g. wKB/o, or a database counter's name */
  metric: string;
  baseline: number;
  candidate: number;
  /** candidate / baseline; null when the baseline was 0 and the candidate was not */
  ratio: number | null;
}

/** The verdict on one test and the figures it rests on, as analysis gives it and the store keeps it. */
export interface Verdict extends TestId {
  kind: VerdictKind;
  /** C/B: paired sessions the geometric mean of the pair ratios, whole runs the ratio of medians */
  relativeQps: number;
  threshold: number;
  /** family-wise p-values of the randomization test: C slower, C faster */
  pSlower: number;
  pFaster: number;
  /** the baseline's robust relative spread (1.4826 x MAD / median) */
  baselineSpread: number;
  /** the interval of relative QPS at `confidence` (0.95 = 95%): "ok" means no drop larger than 1 - low */
  low: number;
  /** null when the interval has no upper end (a single pair) */
  high: number | null;
  confidence: number;
  /** the smallest drop (0.05 = 5%) the session would have caught 4 times in 5 at its alpha */
  detectableDrop: number;
  /** pairs measured (paired design) or rounds (whole runs) behind the verdict */
  pairs: number;
  /** standard deviation of one pair's log ratio (or of one run's log QPS); null when not defined (a single pair) */
  noise: number | null;
  /**
   * paired design: how much faster (a ratio) the second run of a pair was than the first; null for whole runs and older
   * verdicts
   */
  orderEffect?: number | null;
  /**
   * the standard error of the log of relativeQps: chained estimates add these in quadrature; null for older verdicts
   */
  logSe?: number | null;
  /**
   * the degrees of freedom of logSe: paired, the blocks (pairs of server instances) behind the verdict less 1; whole
   * runs, the runs of both sides less 2; null for verdicts stored before it was kept (the chain then takes pairs - 2)
   */
  logSeDf?: number | null;
  /** per-op figures of C that grew by 5% or more over B, largest first (regressions only) */
  hint: HintFigure[];
}

/** The fields that say how far a session could see: verdicts stored before they existed have none. */
export type VerdictReachField =
  'low' | 'high' | 'confidence' | 'detectableDrop' | 'pairs' | 'noise' | 'orderEffect' | 'logSe' | 'logSeDf';
