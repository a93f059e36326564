import type { FoldedStack } from '../model/index.js';

/**
 * A symbol name as one frame of a folded stack: ';' separates frames and a line break ends a record, so both are
 * replaced; an empty name reads [unknown]. Everything else stays as the binary spelled it (escaped when shown).
 */
export function frameName(raw: string): string {
  const name = raw
    .replace(/;/g, ',')
    .replace(/[\r\n]+/g, ' ')
    .trim();
  return name === '' ? '[unknown]' : name;
}

/** Call stacks (frames root first) counted into folded stacks, each distinct stack once, sorted by its text. */
export function foldStacks(stacks: Iterable<readonly string[]>): FoldedStack[] {
  const counts = new Map<string, number>();
  for (const frames of stacks) {
    if (frames.length === 0) continue;
    const key = frames.map(frameName).join(';');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([stack, count]) => ({ stack, count }));
}

/** The samples a profile holds. */
export function sampleCount(stacks: readonly FoldedStack[]): number {
  return stacks.reduce((sum, s) => sum + s.count, 0);
}
