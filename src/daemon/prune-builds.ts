import { existsSync } from 'node:fs';
import { selectLastGood } from '../analysis/index.js';
import { applyPrune, installDirFor, planPrune, type BuildEntry } from '../compile/index.js';
import type { Logger } from '../log/index.js';
import type { BuildRecord, CheckStore, ReleaseRecord, ReleaseStore } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { compareVersions, parseVersion } from '../version/index.js';
import { seriesBase } from '../checks/index.js';

export type PruneKeepReason = 'base' | 'last good' | 'newest';

export interface PrunedBuild {
  upstream: string;
  tag: string;
  version: string;
  key: string;
  installDir: string;
  /** When the build ended. */
  builtAt: string;
}

export interface PruneSelection {
  keep: Array<PrunedBuild & { reasons: PruneKeepReason[] }>;
  /** Least recently built first. */
  remove: PrunedBuild[];
}

/**
 * Which installs to delete, per upstream: all but the newest `keepBuilds` versions, the upstream's base release
 * (reports are relative to it) and its last good release (the next check's baseline). Only good builds whose
 * install folder is still there count; failed builds keep their log for people to read. The folder is the one
 * state_dir and the build key make, never the path the store holds: a row anyone could write must not choose what
 * root deletes.
 */
export async function selectPrune(
  store: ReleaseStore & CheckStore,
  upstreams: readonly Upstream[],
  keepBuilds: number,
  stateDir: string,
): Promise<PruneSelection> {
  const [builds, checks, triage] = await Promise.all([store.listBuilds(), store.listChecks(), store.listTriage()]);
  const selection: PruneSelection = { keep: [], remove: [] };
  for (const upstream of upstreams) {
    const releases = await store.listReleases(upstream.name);
    const byId = new Map(releases.map((r) => [r.id, r]));
    const installed = builds
      .filter((b) => b.state === 'built' && byId.has(b.releaseId))
      .map((b) => ({ ...b, installDir: installDirFor(stateDir, b.buildKey) }))
      .filter((b) => existsSync(b.installDir));
    // The base as the chain and a check against the base resolve it: base:, else the oldest checked release.
    const protectedKeys = protectedBuilds(
      installed,
      seriesBase(upstream, releases, checks),
      selectLastGood(releases, checks, triage)?.release,
    );
    const described = new Map(installed.map((b) => [b.buildKey, describe(upstream, b, byId.get(b.releaseId)!)]));
    const plan = planPrune({
      builds: [...described.values()].map(asEntry),
      keep: new Set(protectedKeys.keys()),
      keepLatest: keepBuilds,
    });
    const newest = newestVersions([...described.values()], keepBuilds);
    for (const { build } of plan.keep) {
      const reasons = [
        ...(protectedKeys.get(build.key) ?? []),
        ...(newest.has(parseVersion(build.version).text) ? (['newest'] as const) : []),
      ];
      selection.keep.push({ ...described.get(build.key)!, reasons });
    }
    selection.remove.push(...plan.remove.map((e) => described.get(e.key)!));
  }
  return selection;
}

/** Deletes what selectPrune chose; returns the folders removed. */
export async function pruneBuilds(
  store: ReleaseStore & CheckStore,
  upstreams: readonly Upstream[],
  keepBuilds: number,
  stateDir: string,
  log: Logger,
): Promise<{ selection: PruneSelection; removed: string[] }> {
  const selection = await selectPrune(store, upstreams, keepBuilds, stateDir);
  const removed = await applyPrune({ keep: [], remove: selection.remove.map(asEntry) });
  for (const b of selection.remove)
    log.info({ upstream: b.upstream, tag: b.tag, key: b.key }, 'install pruned: it is built again if it is needed');
  return { selection, removed };
}

/**
 * The daemon's prune after a check of `release`: a check may have moved its series' last good release, so that
 * series' installs no longer kept go now (the others are pruned after their own checks). A folder that cannot be
 * deleted must not fail the release: it is logged, and the next check tries again. Returns the folders removed.
 */
export async function pruneAfterCheck(
  release: ReleaseRecord,
  store: ReleaseStore & CheckStore,
  upstreams: readonly Upstream[],
  keepBuilds: number,
  stateDir: string,
  log: Logger,
): Promise<string[]> {
  try {
    const { removed } = await pruneBuilds(
      store,
      upstreams.filter((u) => u.name === release.upstream),
      keepBuilds,
      stateDir,
      log,
    );
    if (removed.length > 0) log.info({ upstream: release.upstream, removed: removed.length }, 'old installs pruned');
    return removed;
  } catch (err) {
    log.warn(
      { upstream: release.upstream, error: err instanceof Error ? err.message : String(err) },
      'pruning old installs failed',
    );
    return [];
  }
}

function describe(upstream: Upstream, build: BuildRecord, release: ReleaseRecord): PrunedBuild {
  return {
    upstream: upstream.name,
    tag: release.tag,
    version: release.version,
    key: build.buildKey,
    installDir: build.installDir,
    builtAt: build.endedAt ?? build.startedAt,
  };
}

function asEntry(b: PrunedBuild): BuildEntry {
  return { key: b.key, version: b.version, installDir: b.installDir, lastUsedAt: b.builtAt };
}

function newestVersions(builds: readonly PrunedBuild[], n: number): Set<string> {
  const versions = [...new Map(builds.map((b) => [b.version, parseVersion(b.version)])).values()].sort((a, b) =>
    compareVersions(b, a),
  );
  return new Set(versions.slice(0, n).map((v) => v.text));
}

function protectedBuilds(
  installed: readonly BuildRecord[],
  base: ReleaseRecord | undefined,
  lastGood: ReleaseRecord | undefined,
): Map<string, PruneKeepReason[]> {
  const reasons = new Map<string, PruneKeepReason[]>();
  const add = (release: ReleaseRecord | undefined, reason: PruneKeepReason): void => {
    if (release === undefined) return;
    for (const b of installed.filter((b) => b.releaseId === release.id))
      reasons.set(b.buildKey, [...(reasons.get(b.buildKey) ?? []), reason]);
  };
  add(base, 'base');
  add(lastGood, 'last good');
  return reasons;
}
