/**
 * Which pair of server instances measured each sweep of a paired session. Both servers are restarted on fresh copies
 * of their loaded data once the instances up have measured `instanceSeconds` of runs (the tests' seconds, both
 * sides, counted at the end of each sweep), so the pairs of a block share one pair of instances and the verdict's
 * test treats a block as one unit (docs/verdicts.md). The rule reads only what every sample stores (its sweep and
 * its seconds), so the session that restarts and the judge that reads the samples later cannot disagree.
 */
export interface InstanceBlocks {
  /** The block (0, 1, ...) of each sweep. */
  blockOf: Map<number, number>;
  /** Blocks whose instances have measured their seconds: the next sweep runs on new instances. */
  closed: number;
}

export function instanceBlocks(
  samples: ReadonlyArray<{ round: number; seconds: number }>,
  instanceSeconds: number | undefined,
): InstanceBlocks {
  const secondsOf = new Map<number, number>();
  for (const s of samples) secondsOf.set(s.round, (secondsOf.get(s.round) ?? 0) + Math.round(s.seconds));
  const rounds = [...secondsOf.keys()].sort((a, b) => a - b);
  const blockOf = new Map<number, number>();
  // A session stored before instances were restarted ran one pair of instances throughout; it is judged as it was
  // then, each sweep a unit of its own.
  if (instanceSeconds === undefined) {
    rounds.forEach((round, i) => blockOf.set(round, i));
    return { blockOf, closed: rounds.length };
  }
  let block = 0;
  let measured = 0;
  for (const round of rounds) {
    blockOf.set(round, block);
    measured += secondsOf.get(round)!;
    if (measured >= instanceSeconds) {
      block++;
      measured = 0;
    }
  }
  return { blockOf, closed: block };
}
