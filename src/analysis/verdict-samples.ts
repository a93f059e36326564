import type { SampleRecord } from '../store/index.js';

/** The rounds (sweeps) in which both sides of one test were measured, in order. */
export function pairedRounds(group: readonly SampleRecord[]): number[] {
  const b = new Set(group.filter((s) => s.role === 'baseline').map((s) => s.round));
  return [...new Set(group.filter((s) => s.role === 'candidate' && b.has(s.round)).map((s) => s.round))].sort(
    (x, y) => x - y,
  );
}

/**
 * The samples of one test that its verdict rests on: those of its first `pairs` paired rounds. A sequential session
 * keeps measuring a decided test while others are open; its verdict, its hint and every figure the report shows for
 * it come from these same samples, so no two figures of one test disagree.
 */
export function samplesOfFirstPairs(group: readonly SampleRecord[], pairs: number): SampleRecord[] {
  const rounds = new Set(pairedRounds(group).slice(0, pairs));
  return group.filter((s) => rounds.has(s.round));
}
