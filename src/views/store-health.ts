import type { DaemonHealth, DaemonStatus } from '../metrics/index.js';
import type { BuildRecord, CheckStore, QueueRecord, QueueStore, ReleaseStore, SessionStore } from '../store/index.js';

/** The daemon's health for /metrics: what the store knows, read on each scrape, plus the daemon's own status. */
export async function storeHealth(
  store: ReleaseStore & SessionStore & CheckStore & QueueStore,
  status: DaemonStatus,
): Promise<DaemonHealth> {
  const [releases, builds, sessions, events, queue] = await Promise.all([
    store.listReleases(),
    store.listBuilds(),
    store.listSessions({ limit: 1, state: 'done' }),
    store.listEvents({ state: 'open' }),
    store.listQueue(),
  ]);
  // Every series with releases is listed, so a count that falls to zero shows as 0 rather than vanishing.
  const open = new Map<string, number>(releases.map((r) => [r.upstream, 0]));
  for (const e of events) open.set(e.upstream, (open.get(e.upstream) ?? 0) + 1);
  const session = sessions[0];
  return {
    ...status,
    releasesDiscovered: releases.length,
    builds: {
      built: builds.filter((b) => b.state === 'built').length,
      failed: builds.filter((b) => b.state === 'failed').length,
    },
    lastBuildDurationSeconds: newestFinished(builds)?.durationSeconds ?? null,
    lastSessionDurationSeconds: session?.endedAt == null ? null : secondsBetween(session.startedAt, session.endedAt),
    activeRegressions: [...open].map(([series, count]) => ({ series, count })),
    retriesPending: { build: waitingRetry(queue, 'build'), session: waitingRetry(queue, 'session') },
  };
}

/** Rows back at a step's start after a failed attempt, waiting for the next (a failed row has given up). */
function waitingRetry(queue: readonly QueueRecord[], step: 'build' | 'session'): number {
  return queue.filter(
    (q) => q.failedStep === step && q.failures > 0 && (q.state === 'discovered' || q.state === 'built'),
  ).length;
}

function newestFinished(builds: readonly BuildRecord[]): BuildRecord | undefined {
  let newest: BuildRecord | undefined;
  for (const b of builds) {
    if (b.state === 'building' || b.endedAt === null) continue;
    if (newest === undefined || b.endedAt > newest.endedAt!) newest = b;
  }
  return newest;
}

function secondsBetween(from: string, to: string): number {
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}
