import type { Logger } from '../log/index.js';
import type { RecordReleasesResult, ReleaseStore } from '../store/index.js';
import {
  describeEmptySelection,
  discoverTarballReleases,
  listRemoteTags,
  selectReleases,
  type Release,
  type RemoteTag,
  type Upstream,
} from '../upstream/index.js';
import { versionKey } from '../version/index.js';

export interface DiscoveryOutcome {
  upstream: string;
  /** Why discovery of this upstream failed (one line); the other upstreams go on. */
  error?: string;
  /** Tags seen for the first time and tags that moved; empty when the upstream failed. */
  result: RecordReleasesResult;
  /** Releases that passed the upstream's filters this time. */
  selected: number;
  /** Their tags: what the daemon works on (a release the filters no longer select stays in the store, untouched). */
  selectedTags: string[];
}

/**
 * Asks each upstream for its tags (`git ls-remote`, cheap: no objects are fetched; a tarball upstream: its index),
 * keeps the releases its flavor,
 * series and filters select, and records them. A failing upstream is logged with its one-line reason and the others
 * go on, so one dead remote never hides a new release of another.
 */
export async function discoverAll(
  upstreams: readonly Upstream[],
  store: ReleaseStore,
  log: Logger,
  signal?: AbortSignal,
): Promise<DiscoveryOutcome[]> {
  const outcomes: DiscoveryOutcome[] = [];
  for (const upstream of upstreams) {
    try {
      outcomes.push(await discoverOne(upstream, store, log, signal));
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log.error({ upstream: upstream.name, remote: upstream.remote, error }, 'discovery failed');
      outcomes.push({
        upstream: upstream.name,
        error,
        result: { added: [], moved: [] },
        selected: 0,
        selectedTags: [],
      });
    }
  }
  return outcomes;
}

async function discoverOne(
  upstream: Upstream,
  store: ReleaseStore,
  log: Logger,
  signal?: AbortSignal,
): Promise<DiscoveryOutcome> {
  const { tags, releases } = await findReleases(upstream, store, log, signal);
  if (releases.length === 0) log.warn({ upstream: upstream.name }, describeEmptySelection(upstream, tags));
  const result = await store.recordReleases(
    releases.map((r) => ({
      upstream: upstream.name,
      flavor: upstream.flavor,
      tag: r.tag,
      commit: r.commit,
      version: r.version.text,
      versionKey: versionKey(r.version),
    })),
  );
  for (const release of result.added)
    log.info({ upstream: upstream.name, tag: release.tag, commit: release.commit }, 'new release');
  for (const { release, fromCommit } of result.moved) {
    log.warn(
      { upstream: upstream.name, tag: release.tag, from: fromCommit, to: release.commit },
      'tag moved upstream: it will be built again',
    );
  }
  return { upstream: upstream.name, result, selected: releases.length, selectedTags: releases.map((r) => r.tag) };
}

/**
 * A git upstream's release tags (`git ls-remote`), or a tarball or source upstream's index: the same selection rules,
 * and only releases the store does not know yet are looked up for their checksum.
 */
async function findReleases(
  upstream: Upstream,
  store: ReleaseStore,
  log: Logger,
  signal?: AbortSignal,
): Promise<{ tags: RemoteTag[]; releases: Release[] }> {
  if (upstream.kind !== 'git') {
    const known = new Map((await store.listReleases(upstream.name)).map((r) => [r.tag, r.commit]));
    return discoverTarballReleases(upstream, known, { log, signal });
  }
  const tags = await listRemoteTags(upstream.remote, { log, ...(signal !== undefined ? { signal } : {}) });
  return { tags, releases: selectReleases(upstream, tags, log) };
}
