import { verdictKinds, type VerdictKind } from '../model/index.js';
import type { Block } from './document.js';

/** The order a headline names the kinds in: what needs a person first. */
const HEADLINE_ORDER: readonly VerdictKind[] = ['regression', 'slower', 'unstable', 'improvement', 'ok'];

const PLURALS: Record<VerdictKind, [string, string]> = {
  regression: ['regression', 'regressions'],
  slower: ['slower', 'slower'],
  unstable: ['unstable', 'unstable'],
  improvement: ['improvement', 'improvements'],
  ok: ['ok', 'ok'],
};

/** How many tests got each verdict, every kind present (0 where none). */
export function countVerdicts(kinds: readonly VerdictKind[]): Record<VerdictKind, number> {
  const counts = Object.fromEntries(verdictKinds.map((k) => [k, 0])) as Record<VerdictKind, number>;
  for (const kind of kinds) counts[kind] += 1;
  return counts;
}

/** Each kind that occurs, worst first, with its words: "4 regressions". */
export function headlineParts(counts: Readonly<Record<VerdictKind, number>>): { kind: VerdictKind; text: string }[] {
  return HEADLINE_ORDER.filter((k) => counts[k] > 0).map((kind) => ({
    kind,
    text: `${counts[kind]} ${PLURALS[kind][counts[kind] === 1 ? 0 : 1]}`,
  }));
}

/** "4 regressions, 3 unstable, 1 ok": the kinds that occur, worst first; "no verdicts" for none. */
export function verdictHeadline(kinds: readonly VerdictKind[]): string {
  const parts = headlineParts(countVerdicts(kinds));
  return parts.length === 0 ? 'no verdicts' : parts.map((p) => p.text).join(', ');
}

/** The headline block of some verdicts: "4 regressions, 3 unstable, 1 ok", each count in its verdict's tone. */
export function headlineBlock(kinds: readonly VerdictKind[]): Extract<Block, { kind: 'headline' }> {
  const parts = headlineParts(countVerdicts(kinds)).map(({ kind, text }) => ({ tone: kind, text }));
  return { kind: 'headline', text: verdictHeadline(kinds), parts };
}
