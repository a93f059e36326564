import type { InstructionVerdictKind, VerdictKind } from '../model/index.js';

/**
 * The search of a bisection over the commits after the last good release, oldest first: index count-1 is the
 * regressed tag's commit (known bad), index -1 stands for the good release. Plain data in and out, so the order in
 * which commits are built is tested without a build.
 */
export interface BisectSearch {
  /** Commits after the good release, the bad tag's included. */
  readonly count: number;
  /** The newest index known good; -1: the good release itself. */
  readonly good: number;
  /** The oldest index known bad; count-1 at the start. */
  readonly bad: number;
  /** Indices that did not build (or could not be judged): never picked again, as git bisect skip does. */
  readonly skipped: readonly number[];
}

/** What one step found: the commit is good or bad, or it did not build (skip). */
export type StepOutcome = 'good' | 'bad' | 'skip';

/** Where a search ends: the first bad commit, or the commits it is one of (skipped ones next to it). */
export type BisectConclusion =
  | { readonly kind: 'found'; readonly index: number }
  | { readonly kind: 'ambiguous'; readonly indices: readonly number[] };

export function startSearch(count: number): BisectSearch {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`startSearch: count must be >= 1, got ${count}`);
  return { count, good: -1, bad: count - 1, skipped: [] };
}

/**
 * The commit to build next: the untried one nearest the middle of (good, bad), the older of two as near; a skipped
 * commit's neighbour takes its place. Undefined when nothing is left to try.
 */
export function nextIndex(search: BisectSearch): number | undefined {
  const middle = Math.floor((search.good + search.bad) / 2);
  let best: number | undefined;
  for (let i = search.good + 1; i < search.bad; i++) {
    if (search.skipped.includes(i)) continue;
    if (best === undefined || Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  }
  return best;
}

/** The search after one step's outcome at `index`. */
export function afterStep(search: BisectSearch, index: number, outcome: StepOutcome): BisectSearch {
  if (!(index > search.good && index < search.bad))
    throw new RangeError(`afterStep: index ${index} is not between good ${search.good} and bad ${search.bad}`);
  switch (outcome) {
    case 'good':
      return { ...search, good: index };
    case 'bad':
      return { ...search, bad: index };
    case 'skip':
      return { ...search, skipped: [...search.skipped, index].sort((a, b) => a - b) };
  }
}

/**
 * Where the search stands when nextIndex has nothing left: the bad end is the first bad commit, unless skipped
 * commits lie between the good end and it; then the first bad one is any of them or the bad end.
 */
export function conclude(search: BisectSearch): BisectConclusion {
  const between = search.skipped.filter((i) => i > search.good && i < search.bad);
  return between.length === 0
    ? { kind: 'found', index: search.bad }
    : { kind: 'ambiguous', indices: [...between, search.bad] };
}

/** The most builds a bisection of `count` commits should need: ceil(log2(count)) + 2 (room for a skip or two). */
export function bisectBuildBound(count: number): number {
  return Math.ceil(Math.log2(Math.max(1, count))) + 2;
}

/**
 * A step's outcome from the verdicts of its session (the good release as B, the commit as C): bad when any test
 * regressed, good when every test is ok or improved, undecided otherwise (slower, unstable, unclear). The same for
 * the instructions lane's verdicts of a step (the commit's counts against the good release's).
 */
export function stepVerdict(kinds: readonly (VerdictKind | InstructionVerdictKind)[]): 'good' | 'bad' | 'undecided' {
  if (kinds.length === 0) return 'undecided';
  if (kinds.includes('regression')) return 'bad';
  return kinds.every((k) => k === 'ok' || k === 'improvement') ? 'good' : 'undecided';
}
