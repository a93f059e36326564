import type { FoldedStack, FrameShareRow } from '../model/index.js';
import { sampleCount } from './fold.js';

interface FrameCounts {
  self: Map<string, number>;
  total: Map<string, number>;
  samples: number;
}

/** Per frame: the samples where it was the leaf (self), and those where it was anywhere on the stack (total, once). */
function frameCounts(stacks: readonly FoldedStack[]): FrameCounts {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const { stack, count } of stacks) {
    const frames = stack.split(';');
    const leaf = frames.at(-1)!;
    self.set(leaf, (self.get(leaf) ?? 0) + count);
    // A recursive function counts once per sample, or its total share could pass 100%.
    for (const frame of new Set(frames)) total.set(frame, (total.get(frame) ?? 0) + count);
  }
  return { self, total, samples: sampleCount(stacks) };
}

/**
 * The functions whose share of the samples grew most from the baseline's profile to the candidate's, ranked by the
 * growth of their total share (a caller of the code that grew is named too: it is where a person starts reading),
 * then of their self share. Shares are fractions of each side's own samples, so profiles of different lengths compare.
 */
export function rankGrownFrames(
  baseline: readonly FoldedStack[],
  candidate: readonly FoldedStack[],
  limit = 20,
): FrameShareRow[] {
  const b = frameCounts(baseline);
  const c = frameCounts(candidate);
  const share = (counts: Map<string, number>, frame: string, samples: number): number =>
    samples > 0 ? (counts.get(frame) ?? 0) / samples : 0;
  const rows = [...new Set([...b.total.keys(), ...c.total.keys()])].map((frame): FrameShareRow => {
    const row = {
      frame,
      baselineSelf: share(b.self, frame, b.samples),
      candidateSelf: share(c.self, frame, c.samples),
      baselineTotal: share(b.total, frame, b.samples),
      candidateTotal: share(c.total, frame, c.samples),
    };
    return {
      ...row,
      totalGrowth: row.candidateTotal - row.baselineTotal,
      selfGrowth: row.candidateSelf - row.baselineSelf,
    };
  });
  return rows
    .filter((r) => r.totalGrowth > 0 || r.selfGrowth > 0)
    .sort((x, y) => y.totalGrowth - x.totalGrowth || y.selfGrowth - x.selfGrowth || (x.frame < y.frame ? -1 : 1))
    .slice(0, limit);
}
