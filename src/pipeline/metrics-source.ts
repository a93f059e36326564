import { z } from 'zod';
import { median } from '../analysis/index.js';
import type { DaemonStatus, MetricsSource, ReleaseFigureRow } from '../metrics/index.js';
import { ratioOrOne } from '../report/index.js';
import type { CheckRecord, ReleaseRecord, SessionRecord, Store, VerdictRecord } from '../store/index.js';
import type { SampleRole } from '../model/index.js';
import type { Upstream } from '../upstream/index.js';
import { FIGURE_FIELDS, SessionCache, testKey, type SideFigures } from './metrics-session-cache.js';
import { storeHealth } from './store-health.js';

export interface ReleaseMetricsOptions {
  /** Only the newest this many versions of each series are exported (metrics_versions_per_series). */
  versionsPerSeries: number;
}

/** The store behind /metrics: per-release figures of the configured upstreams, and the daemon's health. */
export function pipelineMetricsSource(store: Store, upstreams: readonly Upstream[], options: ReleaseMetricsOptions & { status: () => DaemonStatus }): MetricsSource {
  const figures = releaseFigureReader(store, upstreams, options);
  return { releaseFigures: figures, health: () => storeHealth(store, options.status()) };
}

/** Every done session, however many: listSessions wants a limit. */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * Reads the sessions, releases and checks on each call, so what is served is what the store holds; the samples of
 * done sessions are read once (SessionCache). The samples that count are those store.releaseSamples gives: the
 * release sides of done sessions, without the sessions of checks marked invalid.
 */
export function releaseFigureReader(store: Store, upstreams: readonly Upstream[], options: ReleaseMetricsOptions): () => Promise<ReleaseFigureRow[]> {
  const cache = new SessionCache(store);
  const medians = new MedianMemo();
  return async () => {
    const sessions = await store.listSessions({ limit: ALL, state: 'done' });
    const rows: ReleaseFigureRow[] = [];
    for (const upstream of upstreams) rows.push(...(await seriesFigures(store, upstream, sessions, { cache, medians }, options.versionsPerSeries)));
    cache.sweep();
    medians.sweep();
    return rows;
  };
}

/** One version's test on one host: its figures from every session side that counts. */
interface Group {
  key: string;
  hostId: number;
  release: ReleaseRecord;
  test: string;
  threads: number;
  parts: SideFigures[];
  /** The session sides the parts come from: equal signatures, equal medians. */
  signature: string;
}

interface Caches {
  cache: SessionCache;
  medians: MedianMemo;
}

async function seriesFigures(store: Store, upstream: Upstream, sessions: readonly SessionRecord[], { cache, medians }: Caches, limit: number): Promise<ReleaseFigureRow[]> {
  const [releases, checks, events] = await Promise.all([store.listReleases(upstream.name), store.listChecks(upstream.name), store.listEvents({ upstream: upstream.name, state: 'open' })]);
  const open = new Set(events.map((e) => `${e.releaseId}\u0000${testKey(e.test, e.threads)}`));
  const invalid = new Set(checks.filter((c) => c.invalid).map((c) => c.sessionId));
  const sides = releaseSides(upstream, releases, sessions.filter((s) => !invalid.has(s.id)));
  const kept = newestReleases(sides.map((s) => s.release), limit);
  const groups = await groupFigures(sides, cache);
  const hosts = await hostFacts(store, groups);
  const checked = await checkedFigures(cache, checks, sessions, kept);
  const bases = baseReleases(upstream, groups);
  const rows: ReleaseFigureRow[] = [];
  for (const group of groups.values()) {
    const host = hosts.get(group.hostId);
    if (!kept.has(group.release.id) || host === undefined) continue;
    const m = medians.of(group);
    const baseRelease = bases.get(group.hostId);
    const base = baseRelease === undefined ? undefined : groups.get(groupKey(group.hostId, baseRelease.id, group.test, group.threads));
    rows.push({
      labels: labelsOf(upstream, host.fingerprintId, group),
      qps: m.qps,
      relativeQps: base === undefined ? null : ratioOrOne(m.qps, medians.of(base).qps),
      relativeToLastGood: checked.get(group.key)?.relativeQps ?? null,
      detectableDrop: checked.get(group.key)?.detectableDrop ?? null,
      regressionOpen: open.has(`${group.release.id}\u0000${testKey(group.test, group.threads)}`),
      // cpu/o is a percent of all CPUs per operation: / 100 x CPUs gives CPU seconds per operation.
      cpuSecondsPerOp: host.cpus === undefined ? null : (m.cpuPerOp / 100) * host.cpus,
      contextSwitchesPerOp: m.csPerOp,
      readOpsPerOp: m.readsPerOp,
      readBytesPerOp: m.readKBPerOp * 1024,
      writtenBytesPerOp: m.writeKBPerOp * 1024,
      latencyP95Seconds: m.latencyP95Ms / 1000,
    });
  }
  return rows;
}

interface ReleaseSide {
  session: SessionRecord;
  role: SampleRole;
  release: ReleaseRecord;
}

/** The sides of the sessions that ran a release of this upstream, matched by upstream and tag as the store does. */
function releaseSides(upstream: Upstream, releases: readonly ReleaseRecord[], sessions: readonly SessionRecord[]): ReleaseSide[] {
  const byTag = new Map(releases.map((r) => [r.tag, r]));
  const sides: ReleaseSide[] = [];
  for (const session of sessions) {
    for (const role of ['baseline', 'candidate'] as const) {
      const { kind, upstream: name, tag } = session[role].description;
      const release = kind === 'release' && name === upstream.name && typeof tag === 'string' ? byTag.get(tag) : undefined;
      if (release !== undefined) sides.push({ session, role, release });
    }
  }
  return sides;
}

const groupKey = (hostId: number, releaseId: number, test: string, threads: number): string => `${hostId}\u0000${releaseId}\u0000${testKey(test, threads)}`;

async function groupFigures(sides: readonly ReleaseSide[], cache: SessionCache): Promise<Map<string, Group>> {
  const groups = new Map<string, Group>();
  for (const { session, role, release } of sides) {
    for (const { test, threads, figures } of (await cache.figures(session.id))[role].values()) {
      const key = groupKey(session.hostId, release.id, test, threads);
      const side = `${session.id}${role[0]}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { key, hostId: session.hostId, release, test, threads, parts: [figures], signature: side });
      else {
        group.parts.push(figures);
        group.signature += `,${side}`;
      }
    }
  }
  return groups;
}

type Medians = Record<(typeof FIGURE_FIELDS)[number], number>;

/**
 * Medians of a group, remembered while its session sides stay the same: between two scrapes usually nothing
 * changed, and sorting every sample's figures again was most of a scrape's time with 100,000 samples.
 */
class MedianMemo {
  readonly #memo = new Map<string, { signature: string; medians: Medians }>();
  readonly #used = new Set<string>();

  of(group: Group): Medians {
    this.#used.add(group.key);
    const known = this.#memo.get(group.key);
    if (known?.signature === group.signature) return known.medians;
    const medians = {} as Medians;
    for (const field of FIGURE_FIELDS) medians[field] = median(group.parts.flatMap((p) => p[field]));
    this.#memo.set(group.key, { signature: group.signature, medians });
    return medians;
  }

  sweep(): void {
    for (const key of this.#memo.keys()) if (!this.#used.has(key)) this.#memo.delete(key);
    this.#used.clear();
  }
}

/** Pruning by policy keeps the series count bounded; versions order by their sortable key, never by tag text. */
function newestReleases(releases: readonly ReleaseRecord[], limit: number): Set<number> {
  const unique = new Map(releases.map((r) => [r.id, r]));
  const newestFirst = [...unique.values()].sort((a, b) => (a.versionKey < b.versionKey ? 1 : a.versionKey > b.versionKey ? -1 : 0));
  return new Set(newestFirst.slice(0, limit).map((r) => r.id));
}

/**
 * The series' base release on each host: the upstream's base when set, else the oldest version measured on that host
 * (as the history report does). A pruned version still serves as the base.
 */
function baseReleases(upstream: Upstream, groups: ReadonlyMap<string, Group>): Map<number, ReleaseRecord> {
  const bases = new Map<number, ReleaseRecord>();
  for (const { hostId, release } of groups.values()) {
    const current = bases.get(hostId);
    const better = upstream.base !== undefined ? release.version === upstream.base.text : current === undefined || release.versionKey < current.versionKey;
    if (better) bases.set(hostId, release);
  }
  return bases;
}

const FingerprintCpus = z.object({ threads: z.number().int().positive() });

/** Fingerprint id and CPU count (logical CPUs: cpu/o is a percent of all of them) of each host with results. */
async function hostFacts(store: Store, groups: ReadonlyMap<string, Group>): Promise<Map<number, { fingerprintId: string; cpus: number | undefined }>> {
  const facts = new Map<number, { fingerprintId: string; cpus: number | undefined }>();
  for (const id of new Set([...groups.values()].map((g) => g.hostId))) {
    const host = await store.getHost(id);
    if (host === undefined) continue;
    const parsed = FingerprintCpus.safeParse(host.fingerprint);
    facts.set(id, { fingerprintId: host.fingerprintId, cpus: parsed.success ? parsed.data.threads : undefined });
  }
  return facts;
}

/** Relative QPS and detectable drop per test of each kept release's newest valid check on each host. */
async function checkedFigures(cache: SessionCache, checks: readonly CheckRecord[], sessions: readonly SessionRecord[], kept: ReadonlySet<number>): Promise<Map<string, Pick<VerdictRecord, 'relativeQps' | 'detectableDrop'>>> {
  const hostOf = new Map(sessions.map((s) => [s.id, s.hostId]));
  const newest = new Map<string, { hostId: number; check: CheckRecord }>();
  for (const check of checks) {
    const hostId = hostOf.get(check.sessionId);
    if (check.invalid || !kept.has(check.releaseId) || hostId === undefined) continue;
    // listChecks is in session order: a later check of the release on the host replaces an earlier one.
    newest.set(`${hostId}\u0000${check.releaseId}`, { hostId, check });
  }
  const figures = new Map<string, Pick<VerdictRecord, 'relativeQps' | 'detectableDrop'>>();
  for (const { hostId, check } of newest.values()) {
    for (const v of await cache.verdicts(check.sessionId)) figures.set(groupKey(hostId, check.releaseId, v.test, v.threads), { relativeQps: v.relativeQps, detectableDrop: v.detectableDrop });
  }
  return figures;
}

function labelsOf(upstream: Upstream, host: string, group: Group): ReleaseFigureRow['labels'] {
  return {
    host,
    flavor: upstream.flavor,
    series: upstream.name,
    version: group.release.version,
    version_key: group.release.versionKey,
    test: group.test,
    threads: String(group.threads),
    profile: upstream.serverProfile,
  };
}
