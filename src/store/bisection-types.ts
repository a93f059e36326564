/** Bisections of regressed tags: which commit of the range first made the regressed tests slower. */
import type { MessageInput } from './outbox-types.js';

export const bisectionOutcomes = ['found', 'ambiguous', 'undecided', 'budget', 'failed'] as const;
/**
 * found: one first bad commit; ambiguous: it is one of `candidates` (commits that did not build lie next to it);
 * undecided: a step's session could not tell good from bad; budget: the builds or hours ran out first; failed: an
 * error stopped it (an automatic bisection keeps it, with `error`, so status and the email say so).
 */
export type BisectionOutcome = (typeof bisectionOutcomes)[number];

export const bisectStepOutcomes = ['good', 'bad', 'skip', 'undecided'] as const;
export type BisectStepOutcome = (typeof bisectStepOutcomes)[number];

/** One commit a bisection built and judged (or skipped), in the order it ran. */
export interface BisectStepRecord {
  commit: string;
  subject: string;
  author: string;
  outcome: BisectStepOutcome;
  /** The build key; absent when the build did not start. */
  buildKey?: string;
  /** The paired session against the good release; absent for a commit that did not build. */
  sessionId?: number;
  /** The regressed tests' relative QPS in that session (commit / good release). */
  relativeQps?: Record<string, number>;
  /** A step on the instructions lane: the tests' instructions per query, commit / good release. */
  instructionRatios?: Record<string, number>;
  /** Why it was skipped: the build's error lines. */
  failureLines?: string[];
}

export interface BisectionInput {
  /** The regressed tag's release. */
  releaseId: number;
  /** The good end: the last good release, or the one named. */
  goodReleaseId: number;
  buildProfile: string;
  tests: string[];
  /** Commits after the good release up to the regressed tag's, that one included (0: failed before it knew). */
  commitCount: number;
  outcome: BisectionOutcome;
  /** The first bad commit (outcome found). */
  firstBad?: { commit: string; subject: string; author: string };
  /** The commits the first bad one is among (outcome ambiguous), or the range left (budget, undecided). */
  candidates: string[];
  steps: BisectStepRecord[];
  /** Builds started (a commit that did not build counts). */
  builds: number;
  startedAt: string;
  endedAt: string;
  /** The regression event whose opening started it (bisect: true); absent for one run by hand. */
  eventId?: number;
  /** Why it failed (outcome failed). */
  error?: string;
}

export interface BisectionRecord extends BisectionInput {
  id: number;
}

export interface BisectionStore {
  /** Records a bisection, and its follow-up email when given, in one transaction. */
  recordBisection(input: BisectionInput, message?: MessageInput): Promise<BisectionRecord>;
  /** Newest first; of one release when given. */
  listBisections(query?: { releaseId?: number; limit?: number }): Promise<BisectionRecord[]>;
}
