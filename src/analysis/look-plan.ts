import { smallestFlipP } from './block-flip.js';

/**
 * When a paired session looks at its pairs, and how much of its error rates each look spends (docs/verdicts.md).
 *
 * A session counts in blocks: the pairs measured on one pair of server instances. The looks are at block counts
 * fixed before the first pair, from the blocks the budget pays for (plannedBlocks), so where a look falls never
 * depends on the data. Each look spends an equal share of every test's alpha and of its 1 - confidence; the shares
 * add up to 1, so by the union bound a test's chance of any false call over all its looks is at most its rate,
 * however the looks depend on each other and wherever the budget stops the session.
 *
 * The first look is where the randomization test of the first share can first reject: at k blocks its smallest
 * p-value is 2^-k, and a test's share of alpha there is alpha / (tests x looks). Fewer looks when the budget is
 * short: a look that cannot reject, or one too close to the next to add anything, only thins the others' shares.
 */

/** The most looks a session takes. */
export const MAX_LOOKS = 4;
/** Each look after the first has at least this many times the blocks of the one before. */
const LOOK_GROWTH = 1.3;
/** No look before this many blocks: fewer say too little of the noise for an interval. */
export const MIN_FIRST_BLOCKS = 8;

export interface LookPlan {
  /** Blocks at each look, ascending; the last is the planned blocks (or the first look, when they are fewer). */
  blocks: number[];
  /** The share of each rate spent at each look; they add up to 1. */
  shares: number[];
}

/** The blocks at which a test's share alpha x share / tests can first be reached: 2^-k <= that. */
export function firstReachableBlocks(alpha: number, share: number, family: number): number {
  const level = (alpha * share) / Math.max(family, 1);
  let k = 1;
  while (smallestFlipP(k) > level + 1e-15 && k < 64) k++;
  return k;
}

/**
 * The looks of a session of `family` tests whose budget pays for `plannedBlocks` blocks: as many looks as fit (at most
 * MAX_LOOKS), the first where its share can reject, the last at the planned blocks, spaced evenly on a log scale.
 */
export function lookPlan(plannedBlocks: number, family: number, alpha: number): LookPlan {
  const planned = Math.max(1, Math.round(plannedBlocks));
  for (let looks = MAX_LOOKS; looks >= 2; looks--) {
    const first = Math.max(MIN_FIRST_BLOCKS, firstReachableBlocks(alpha, 1 / looks, family));
    if (planned < first * LOOK_GROWTH ** (looks - 1)) continue;
    const ratio = (planned / first) ** (1 / (looks - 1));
    const blocks = Array.from({ length: looks }, (_, i) =>
      i === looks - 1 ? planned : Math.round(first * ratio ** i),
    );
    return { blocks, shares: blocks.map(() => 1 / looks) };
  }
  return { blocks: [planned], shares: [1] };
}

/** Per look: its blocks, a test's share of alpha there, and whether that many blocks can reach it. */
export interface LookReach {
  look: number;
  blocks: number;
  /** A test's share of alpha at this look (alpha x share / tests: the Bonferroni level before any rejection). */
  alphaSpent: number;
  smallestP: number;
  canReject: boolean;
}

export function lookReach(alpha: number, family: number, plannedBlocks: number): LookReach[] {
  const plan = lookPlan(plannedBlocks, family, alpha);
  return plan.blocks.map((blocks, i) => {
    const alphaSpent = (alpha * plan.shares[i]!) / Math.max(family, 1);
    const smallestP = smallestFlipP(blocks);
    return { look: i + 1, blocks, alphaSpent, smallestP, canReject: smallestP <= alphaSpent + 1e-15 };
  });
}

/**
 * Why no look of a paired session with these settings can call a drop significant, with the fix; undefined when one
 * can. `unit` names what a block is to the person reading it.
 */
export function unreachableAlpha(
  alpha: number,
  family: number,
  plannedBlocks: number,
  unit = 'sweeps',
): string | undefined {
  const looks = lookReach(alpha, family, plannedBlocks);
  if (looks.some((l) => l.canReject)) return undefined;
  const last = looks.at(-1)!;
  const needed = firstReachableBlocks(alpha, 1, family);
  return (
    `alpha ${alpha} over ${family} test(s): a paired session of ${last.blocks} ${unit} cannot call a drop ` +
    `significant (each test's share, ${last.alphaSpent.toPrecision(2)}, is under the smallest p-value of ` +
    `${last.blocks} ${unit}, 1/${Math.round(1 / last.smallestP)}); it needs ${needed} ${unit}: raise the budget, ` +
    `raise alpha to at least ${(family * last.smallestP).toPrecision(2)}, or run fewer tests`
  );
}

/**
 * Whether a session that ends after `endBlocks` blocks can still call a drop significant at some look: the planned
 * looks up to there, then the look the spent budget forces at `endBlocks`, which takes the share of the planned look
 * it cuts short (sequential.ts judges it so).
 */
export function canRejectWithin(alpha: number, family: number, plannedBlocks: number, endBlocks: number): boolean {
  const plan = lookPlan(plannedBlocks, family, alpha);
  for (let i = 0; i < plan.blocks.length; i++) {
    const blocks = Math.min(plan.blocks[i]!, endBlocks);
    if (smallestFlipP(blocks) <= (alpha * plan.shares[i]!) / Math.max(family, 1) + 1e-15) return true;
    if (blocks >= endBlocks) return false;
  }
  return false;
}

/** The fewest blocks a session planned on `plannedBlocks` must reach for some look to call a drop significant. */
export function blocksToReject(alpha: number, family: number, plannedBlocks: number): number | undefined {
  for (let end = 1; end <= plannedBlocks; end++) if (canRejectWithin(alpha, family, plannedBlocks, end)) return end;
  return undefined;
}
