import { printable } from '../report/index.js';
import type { BisectionRecord, BisectionStore, ReleaseRecord } from '../store/index.js';
import { relativeTime } from './relative-time.js';

/** A bisection as status shows it: the stored record with its tags. */
export type StatusBisection = BisectionRecord & { tag: string; goodTag: string };

/** The newest bisections (a handful: status stays short), with the tags of both ends. */
export async function recentBisections(
  store: BisectionStore,
  releases: ReadonlyMap<number, ReleaseRecord>,
  limit = 5,
): Promise<StatusBisection[]> {
  return (await store.listBisections({ limit })).map((b) => ({
    ...b,
    tag: releases.get(b.releaseId)?.tag ?? `#${b.releaseId}`,
    goodTag: releases.get(b.goodReleaseId)?.tag ?? `#${b.goodReleaseId}`,
  }));
}

/**
 * One line per bisection; tags, subjects and authors are data, JSON-quoted, with the C1 controls JSON leaves as they
 * are (U+009B starts a terminal escape sequence) escaped too.
 */
export function bisectionLines(bisections: readonly StatusBisection[], now: Date): string[] {
  const quoted = (text: string): string => printable(JSON.stringify(text));
  const out = ['', `bisections (${bisections.length}):`];
  if (bisections.length === 0) out.push('  (none: qpswatch bisect TAG finds the commit that made a release slower)');
  for (const b of bisections) {
    const what =
      b.outcome === 'found' && b.firstBad !== undefined
        ? `first bad commit ${b.firstBad.commit.slice(0, 12)} ${quoted(b.firstBad.subject)} by ` +
          `${quoted(b.firstBad.author)}`
        : b.outcome === 'failed'
          ? `failed: ${quoted(b.error ?? '')}`
          : `${b.outcome}, ${b.candidates.length} commit(s) left`;
    const event = b.eventId !== undefined ? `, of event ${b.eventId}` : '';
    out.push(
      `  bisect ${quoted(b.tag)}: ${what} (from ${quoted(b.goodTag)}, ${b.builds} build(s) of ` +
        `${b.commitCount} commits${event}, ${relativeTime(b.endedAt, now)})`,
    );
  }
  return out;
}
