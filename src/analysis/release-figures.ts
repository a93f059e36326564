import {
  isMemorySetting,
  PER_OP_FIGURES,
  SAMPLE_FIGURE_FIELDS,
  sampleRoles,
  testIdOf,
  testKey,
  type Figures,
  type PerOp,
  type SampleFigureField,
  type TimeField,
  type SampleRole,
  type TestId,
  type VerdictKind,
} from '../model/index.js';
import { ratioOrOne } from '../report/index.js';
import type { CheckRecord, ReleaseRecord, SessionRecord } from '../store/index.js';
import { medianOfLists } from './median.js';
import { newestValidChecks } from './newest-check.js';
import { chainByTest, type ChainCheck, type ChainLink } from './series-chain.js';

/**
 * The figures of each release of a series, per test and host, as /metrics exports them: medians over every sample
 * of every done, valid session that ran the release (candidate of one check, baseline of the next: both count),
 * relative to the series' base release, with the release's newest valid check on that host.
 */

/** Per figure of a sample (the model's SAMPLE_FIGURE_FIELDS); a time figure may be missing (older samples). */
type PerSampleField<V> = Record<Exclude<SampleFigureField, TimeField>, V> & Partial<Record<TimeField, V>>;

/** One release's figures on one test: the medians of its samples (NaN: none had the figure). */
export type ReleaseFigureValues = PerSampleField<number>;

/** The samples of one session side on one test, figure by figure. */
export type SampleFigureLists = PerSampleField<ArrayLike<number>>;

/** What a part without a figure adds to its median: nothing (NaN is left out). */
const NO_VALUE: ArrayLike<number> = [Number.NaN];

/** One side of a done session that ran a release of the series. */
export interface ReleaseSide {
  session: SessionRecord;
  role: SampleRole;
  release: ReleaseRecord;
}

/**
 * The sides whose samples count for a series: the baseline and candidate of each done session that ran one of its
 * releases (matched by upstream and tag), without the sessions of checks marked invalid or of bisection steps: the
 * one rule of which samples count, for history (releaseSamplesOf) and /metrics (groupReleaseSides) alike. A session
 * run under a memory setting (io-bound, cached) keeps its setting on its tests: an io-bound QPS is never mixed with
 * a cached one.
 */
export function releaseSides(
  series: string,
  releases: readonly ReleaseRecord[],
  doneSessions: readonly SessionRecord[],
  checks: readonly CheckRecord[],
): ReleaseSide[] {
  const invalid = new Set(checks.filter((c) => c.invalid).map((c) => c.sessionId));
  const byTag = new Map(releases.map((r) => [r.tag, r]));
  const sides: ReleaseSide[] = [];
  for (const session of doneSessions) {
    // A bisection's steps measure commits on the regressed tests only: their good release's side is no figure of it.
    if (invalid.has(session.id) || session.settings['purpose'] === 'bisect') continue;
    for (const role of sampleRoles) {
      const { kind, upstream, tag } = session[role].description;
      const release = kind === 'release' && upstream === series && typeof tag === 'string' ? byTag.get(tag) : undefined;
      if (release !== undefined) sides.push({ session, role, release });
    }
  }
  return sides;
}

/** One sample of a done session in which one side ran a release, with that release: the stuff of history. */
export interface ReleaseSampleRecord extends TestId, Figures {
  sessionId: number;
  hostId: number;
  releaseId: number;
}

/**
 * The samples of the measured sides (releaseSides, with each side's figures), one record per run, in the order of
 * session, release, test and threads; a figure the sample lacks (stored before it existed) is left out.
 */
export function releaseSamplesOf(sides: Iterable<MeasuredSide>): ReleaseSampleRecord[] {
  const out: ReleaseSampleRecord[] = [];
  for (const { session, release, tests } of sides) {
    const memory = session.settings['memory'];
    for (const { test, threads, figures } of tests) {
      const id: TestId = { test, threads, ...(isMemorySetting(memory) ? { memory } : {}) };
      for (let i = 0; i < figures.qps.length; i++) {
        const values = PER_OP_FIGURES.flatMap(({ field }) => {
          const value = figures[field]?.[i];
          return value === undefined || Number.isNaN(value) ? [] : [[field, value] as const];
        });
        out.push({
          sessionId: session.id,
          hostId: session.hostId,
          releaseId: release.id,
          ...id,
          qps: figures.qps[i]!,
          ...(Object.fromEntries(values) as PerOp),
        });
      }
    }
  }
  const order = (r: ReleaseSampleRecord) => [r.sessionId, r.releaseId, r.test, r.threads] as const;
  return out.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    for (let k = 0; k < x.length; k++) if (x[k]! !== y[k]!) return x[k]! < y[k]! ? -1 : 1;
    return 0;
  });
}

/** The newest `limit` releases, by their sortable version key (never by tag text): the ones a series exports. */
export function newestReleases(releases: readonly ReleaseRecord[], limit: number): Set<number> {
  const unique = new Map(releases.map((r) => [r.id, r]));
  const newestFirst = [...unique.values()].sort((a, b) =>
    a.versionKey < b.versionKey ? 1 : a.versionKey > b.versionKey ? -1 : 0,
  );
  return new Set(newestFirst.slice(0, limit).map((r) => r.id));
}

/** One release's test on one host, with the samples of every session side that ran it. */
export interface ReleaseGroup extends TestId {
  key: string;
  hostId: number;
  release: ReleaseRecord;
  parts: SampleFigureLists[];
  /** The session sides the parts come from: equal signatures, equal medians. */
  signature: string;
}

export type MeasuredSide = ReleaseSide & { tests: Iterable<TestId & { figures: SampleFigureLists }> };

const groupKey = (hostId: number, releaseId: number, t: TestId): string =>
  `${hostId}\u0000${releaseId}\u0000${testKey(t)}`;
/** The key of a release on a host, as newestChecksOnHosts gives it. */
export const hostReleaseKey = (hostId: number, releaseId: number): string => `${hostId}\u0000${releaseId}`;

/** The sides' samples grouped by host, release and test, in the order they are first seen. */
export function groupReleaseSides(sides: Iterable<MeasuredSide>): Map<string, ReleaseGroup> {
  const groups = new Map<string, ReleaseGroup>();
  for (const { session, role, release, tests } of sides) {
    const memory = session.settings['memory'];
    for (const { test, threads, figures } of tests) {
      const id: TestId = { test, threads, ...(isMemorySetting(memory) ? { memory } : {}) };
      const key = groupKey(session.hostId, release.id, id);
      const side = `${session.id}${role[0]}`;
      const group = groups.get(key);
      if (group === undefined)
        groups.set(key, { key, hostId: session.hostId, release, ...id, parts: [figures], signature: side });
      else {
        group.parts.push(figures);
        group.signature += `,${side}`;
      }
    }
  }
  return groups;
}

/** The median of each figure over every sample of the group. */
export function groupMedians(group: Pick<ReleaseGroup, 'parts'>): ReleaseFigureValues {
  return Object.fromEntries(
    SAMPLE_FIGURE_FIELDS.map((field) => [field, medianOfLists(group.parts.map((p) => p[field] ?? NO_VALUE))]),
  ) as ReleaseFigureValues;
}

/**
 * The base release every ratio of a series is relative to: the one `named` picks (the upstream's base, or the version
 * a person asked for), else the oldest version. -1 when the named one has no results, or nothing has.
 */
export function baseIndex<T extends { versionKey: string }>(items: readonly T[], named?: (item: T) => boolean): number {
  if (named !== undefined) return items.findIndex(named);
  let oldest = -1;
  for (const [i, item] of items.entries()) if (oldest < 0 || item.versionKey < items[oldest]!.versionKey) oldest = i;
  return oldest;
}

/** Each release's newest valid check on each host (by hostReleaseKey), for the releases kept (all when absent). */
export function newestChecksOnHosts(
  checks: readonly CheckRecord[],
  sessions: readonly SessionRecord[],
  kept?: ReadonlySet<number>,
): Map<string, CheckRecord> {
  const hostOf = new Map(sessions.map((s) => [s.id, s.hostId]));
  return newestValidChecks(checks, (check) => {
    const hostId = hostOf.get(check.sessionId);
    return hostId === undefined || (kept !== undefined && !kept.has(check.releaseId))
      ? undefined
      : hostReleaseKey(hostId, check.releaseId);
  });
}

/** What a check said of one test (a store VerdictRecord fits). */
export type CheckedTest = TestId & { kind: VerdictKind; relativeQps: number; detectableDrop: number | null };

export interface SeriesFigureInput {
  groups: ReadonlyMap<string, ReleaseGroup>;
  /** The upstream's base version; absent: the oldest version measured on each host. */
  base?: string;
  /** The releases to give figures for; a release left out still serves as the base. All when absent. */
  kept?: ReadonlySet<number>;
  /** The verdicts of each release's newest valid check on each host (newestChecksOnHosts), by hostReleaseKey. */
  checked?: ReadonlyMap<string, readonly CheckedTest[]>;
  /** The open regression events of the series. */
  open?: ReadonlyArray<TestId & { releaseId: number }>;
  /** The medians of a group (groupMedians by default): a caller may remember them while the signature stays. */
  mediansOf?: (group: ReleaseGroup) => ReleaseFigureValues;
  /**
   * The chain's checks on each host (chainCandidates against that host's base, from seriesBases), by host id: where
   * a release's test chains to the base, its relative QPS is the chained estimate with its interval at `confidence`.
   */
  chainChecks?: ReadonlyMap<number, readonly ChainCheck[]>;
  confidence?: number;
}

/** One release's test on one host, with what /metrics and the dashboards show of it. */
export interface ReleaseFigure extends TestId {
  hostId: number;
  release: ReleaseRecord;
  /** Medians over every sample of the test. */
  figures: ReleaseFigureValues;
  /**
   * Relative QPS against the base release on the host: chained through the paired checks where the test has a chain
   * to the base (docs/verdicts.md), else QPS / QPS of the base (0/0 = 1); null when the base has no result there.
   */
  relativeQps: number | null;
  /** The chained estimate's interval; null for a median ratio, which has none. */
  relativeQpsLow: number | null;
  relativeQpsHigh: number | null;
  /** Relative QPS of the release's newest valid check on the host; null when it was never checked there. */
  relativeToLastGood: number | null;
  /** The smallest drop that check could detect for the test; null when never checked, or before verdicts carried it. */
  detectableDrop: number | null;
  /** That check's verdict on the test; null when it was never checked there. */
  verdict: VerdictKind | null;
  /** A regression event that started with this release is open for the test. */
  regressionOpen: boolean;
}

/** The figures of each kept release's tests on each host, in the order the groups were first seen. */
export function seriesReleaseFigures(input: SeriesFigureInput): ReleaseFigure[] {
  const { groups, kept, mediansOf = groupMedians } = input;
  const bases = seriesBases(groups, input.base);
  const chains = hostChains(bases, input.chainChecks, input.confidence ?? 0.95);
  const verdicts = new Map<string, CheckedTest>();
  for (const [key, tests] of input.checked ?? []) for (const v of tests) verdicts.set(`${key}\u0000${testKey(v)}`, v);
  const open = new Set((input.open ?? []).map((e) => `${e.releaseId}\u0000${testKey(e)}`));
  const out: ReleaseFigure[] = [];
  for (const group of groups.values()) {
    if (kept !== undefined && !kept.has(group.release.id)) continue;
    const figures = mediansOf(group);
    const baseRelease = bases.get(group.hostId);
    const base = baseRelease === undefined ? undefined : groups.get(groupKey(group.hostId, baseRelease.id, group));
    const verdict = verdicts.get(group.key);
    const median = base === undefined ? null : ratioOrOne(figures.qps, mediansOf(base).qps);
    const chained = median === null ? undefined : chainedOf(chains.get(group.hostId), group, baseRelease!.id);
    out.push({
      ...testIdOf(group),
      hostId: group.hostId,
      release: group.release,
      figures,
      relativeQps: chained?.relativeQps ?? median,
      relativeQpsLow: chained?.low ?? null,
      relativeQpsHigh: chained?.high ?? null,
      relativeToLastGood: verdict?.relativeQps ?? null,
      detectableDrop: verdict?.detectableDrop ?? null,
      verdict: verdict?.kind ?? null,
      regressionOpen: open.has(`${group.release.id}\u0000${testKey(group)}`),
    });
  }
  return out;
}

type HostChain = Map<string, Map<number, ChainLink>>;

/** Each host's chains to its base, by test. */
function hostChains(
  bases: ReadonlyMap<number, ReleaseRecord>,
  checks: ReadonlyMap<number, readonly ChainCheck[]> | undefined,
  confidence: number,
): Map<number, HostChain> {
  const chains = new Map<number, HostChain>();
  if (checks === undefined) return chains;
  for (const [hostId, base] of bases) chains.set(hostId, chainByTest(base.id, checks.get(hostId) ?? [], confidence));
  return chains;
}

/** A group's chained estimate: the base's own is exactly 1; undefined where the test has no chain to the base. */
function chainedOf(
  chain: HostChain | undefined,
  group: ReleaseGroup,
  baseId: number,
): Pick<ChainLink, 'relativeQps' | 'low' | 'high'> | undefined {
  if (chain === undefined) return undefined;
  if (group.release.id === baseId) return { relativeQps: 1, low: 1, high: 1 };
  return chain.get(testKey(group))?.get(group.release.id);
}

/**
 * The base release on each host: the named version when it was measured there, else the oldest measured there
 * without a memory setting (the oldest measured at all when every result there has one), so a compare of an older
 * tag under --memory does not take the base away from the checks' figures.
 */
export function seriesBases(
  groups: ReadonlyMap<string, ReleaseGroup>,
  base: string | undefined,
): Map<number, ReleaseRecord> {
  const plainHosts = new Set([...groups.values()].filter((g) => g.memory === undefined).map((g) => g.hostId));
  const measured = new Map<number, ReleaseRecord[]>();
  for (const { hostId, release, memory } of groups.values()) {
    if (base === undefined && memory !== undefined && plainHosts.has(hostId)) continue;
    const list = measured.get(hostId);
    if (list === undefined) measured.set(hostId, [release]);
    else list.push(release);
  }
  const bases = new Map<number, ReleaseRecord>();
  for (const [hostId, releases] of measured) {
    const i = baseIndex(releases, base === undefined ? undefined : (r) => r.version === base);
    if (i >= 0) bases.set(hostId, releases[i]!);
  }
  return bases;
}
