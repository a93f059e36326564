import type { HistoryBisection } from '../model/index.js';

/** A stored bisection (candidates as commits) or a history's (candidates counted). */
export type BisectionLike = Omit<HistoryBisection, 'tag' | 'candidates'> & { candidates: number | readonly string[] };

/**
 * A bisection in one line, e.g. `first bad commit abc1234 "subject" by author (5 builds)`. The subject is quoted as
 * JSON (its quotes and control characters escaped); each layout escapes the whole line again for its format.
 */
export function bisectionSummary(b: BisectionLike): string {
  const builds = `(${b.builds} build${b.builds === 1 ? '' : 's'})`;
  if (b.outcome === 'found' && b.firstBad !== undefined)
    return (
      `first bad commit ${b.firstBad.commit.slice(0, 7)} ${JSON.stringify(b.firstBad.subject)} by ` +
      `${b.firstBad.author} ${builds}`
    );
  const left = typeof b.candidates === 'number' ? b.candidates : b.candidates.length;
  if (b.outcome === 'failed') return `bisect failed: ${b.error ?? 'no error was kept'} ${builds}`;
  return `bisect could not decide (${b.outcome}), ${left} commit(s) left ${builds}`;
}

/** The history report's lines: one per release with a bisection. */
export function historyBisectionLines(bisections: readonly HistoryBisection[]): string[] {
  return bisections.map((b) => `${b.tag}: ${bisectionSummary(b)}`);
}
