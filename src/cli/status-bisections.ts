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

/** One line per bisection; tags, subjects and authors are data, JSON-quoted. */
export function bisectionLines(bisections: readonly StatusBisection[], now: Date): string[] {
  const out = ['', `bisections (${bisections.length}):`];
  if (bisections.length === 0) out.push('  (none: qpswatch bisect TAG finds the commit that made a release slower)');
  for (const b of bisections) {
    const what =
      b.outcome === 'found' && b.firstBad !== undefined
        ? `first bad commit ${b.firstBad.commit.slice(0, 12)} ${JSON.stringify(b.firstBad.subject)} by ` +
          `${JSON.stringify(b.firstBad.author)}`
        : b.outcome === 'failed'
          ? `failed: ${JSON.stringify(b.error ?? '')}`
          : `${b.outcome}, ${b.candidates.length} commit(s) left`;
    const event = b.eventId !== undefined ? `, of event ${b.eventId}` : '';
    out.push(
      `  bisect ${JSON.stringify(b.tag)}: ${what} (from ${JSON.stringify(b.goodTag)}, ${b.builds} build(s) of ` +
        `${b.commitCount} commits${event}, ${relativeTime(b.endedAt, now)})`,
    );
  }
  return out;
}
