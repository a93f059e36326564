import type { Logger } from '../log/index.js';
import type { CheckStore, HostStore, QueueStore, ReleaseRecord, ReleaseStore, SessionStore } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { checkedInSlot, type FleetMember } from './fleet.js';

/** The queue kept in step with what the store knows: new releases, moved tags, reruns, releases checked by hand. */
export interface QueueSyncDeps {
  store: ReleaseStore & QueueStore;
  log: Logger;
  upstreams: readonly Upstream[];
  fleet: FleetMember;
}

/**
 * A valid check of the slot's (fleet.ts: this host's, or its class's), or the acceptance that makes a series' first
 * release its last good, and no rerun asked for.
 */
export async function alreadyChecked(
  store: CheckStore & SessionStore & HostStore,
  fleet: FleetMember,
  release: ReleaseRecord,
): Promise<boolean> {
  if ((await store.listReruns()).some((r) => r.releaseId === release.id)) return false;
  if (await checkedInSlot(store, fleet, release)) return true;
  return (await store.listTriage(release.id)).some((t) => t.action === 'accept');
}

/** Every selected release of the configured upstreams is queued once; a tag that moved upstream is built again. */
export async function enqueueConfigured(
  deps: QueueSyncDeps,
  selected: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<number> {
  let added = 0;
  for (const upstream of deps.upstreams) {
    // Only what the upstream's filters select now: narrowing include or min_version stops work on the rest.
    // An upstream whose discovery failed this time queues nothing new; its rows already queued go on.
    const now = selected.get(upstream.name);
    if (now === undefined) continue;
    const releases = (await deps.store.listReleases(upstream.name)).filter((r) => now.has(r.tag));
    const rows = await deps.store.enqueueReleases(
      deps.fleet.slot,
      releases.map((r) => r.id),
    );
    for (const row of rows) deps.log.info({ tag: row.tag, upstream: row.upstream }, 'queued');
    added += rows.length;
    for (const release of releases.filter((r) => r.movedAt !== null)) {
      const row = await deps.store.getQueued(deps.fleet.slot, release.id);
      if (row !== undefined && ['built', 'done', 'failed'].includes(row.state) && row.updatedAt < release.movedAt!) {
        await deps.store.moveQueued({ slot: deps.fleet.slot, releaseId: release.id, to: 'discovered' });
        deps.log.warn({ tag: release.tag }, 'the tag moved upstream: queued to be built and checked again');
      }
    }
  }
  return added;
}

/** `qpswatch invalid` asked for another check: the release goes back to built, or to discovered if it never built. */
export async function requeueReruns(
  store: CheckStore & QueueStore & ReleaseStore,
  slot: string,
  log: Logger,
): Promise<void> {
  for (const rerun of await store.listReruns()) {
    const row = await store.getQueued(slot, rerun.releaseId);
    if (row === undefined || (row.state !== 'done' && row.state !== 'failed')) continue;
    const built = (await store.buildsOfRelease(rerun.releaseId)).some((b) => b.state === 'built');
    await store.moveQueued({ slot, releaseId: rerun.releaseId, to: built ? 'built' : 'discovered' });
    log.info({ tag: row.tag, reason: rerun.reason }, 'queued again for another check (qpswatch invalid)');
  }
}
