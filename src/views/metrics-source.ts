import { z } from 'zod';
import {
  chainCandidates,
  groupReleaseSides,
  hostReleaseKey,
  newestChecksOnHosts,
  newestReleases,
  releaseSides,
  seriesBases,
  releaseInstructionFigures,
  seriesReleaseFigures,
  thresholdOf,
  type ChainCheck,
  type InstructionVerdictSettings,
  type LaneSide,
  type ReleaseInstructionFigure,
  type MeasuredSide,
  type ReleaseFigure,
  type ReleaseGroup,
  type ReleaseSide,
  type VerdictSettings,
} from '../analysis/index.js';
import type { BuildInfo, DaemonStatus, MetricsSource, ReleaseFigureRow } from '../metrics/index.js';
import {
  isMemorySetting,
  PER_OP_FIGURES,
  testKey,
  TO_BASE_UNIT,
  type InstructionVerdict,
  type MemorySettingName,
  type PerOpField,
} from '../model/index.js';
import type {
  CheckRecord,
  CheckStore,
  HostStore,
  InstructionStore,
  QueueStore,
  ReleaseStore,
  SampleStore,
  SessionRecord,
  SessionStore,
  Store,
  VerdictRecord,
} from '../store/index.js';
import { ranBy } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { MedianMemo, SessionCache } from './metrics-session-cache.js';
import { storeHealth } from './store-health.js';

/**
 * What /metrics reads of the store: sessions and their samples, releases and builds, checks and events, hosts, the
 * queue.
 */
export type MetricsStores = HostStore &
  SessionStore &
  SampleStore &
  ReleaseStore &
  CheckStore &
  QueueStore &
  Pick<InstructionStore, 'instructionRuns'> &
  Pick<Store, 'resultsMark'>;

export interface ReleaseMetricsOptions {
  /** Only the newest this many versions of each series are exported (metrics_versions_per_series). */
  versionsPerSeries: number;
  /** The thresholds the verdicts use (threshold, test_thresholds): each row carries its test's. */
  thresholds: Pick<VerdictSettings, 'threshold' | 'testThresholds'>;
  /** The instructions lane's thresholds (instructions_threshold and its per-test overrides); 1.02 when absent. */
  instructions?: InstructionVerdictSettings;
  /** The confidence of the chained intervals against the base (the verdicts' confidence; default 0.95). */
  confidence?: number;
  /**
   * host_name: only the sessions this host ran (and those from before fleets, which name no runner). A daemon's own
   * /metrics exports its own host; `qpswatch metrics` leaves it out and serves every host.
   */
  runner?: string;
}

/** The store behind /metrics: per-release figures of the configured upstreams, and the daemon's health. */
export function storeMetricsSource(
  store: MetricsStores,
  upstreams: readonly Upstream[],
  options: ReleaseMetricsOptions & { status: () => DaemonStatus; build: BuildInfo },
): MetricsSource {
  const figures = releaseFigureReader(store, upstreams, options);
  return {
    build: options.build,
    releaseFigures: figures,
    changeMark: () => store.resultsMark(),
    health: () => storeHealth(store, options.status()),
  };
}

/**
 * The store behind `qpswatch metrics`: the per-release figures of every host whose sessions the store holds (each row
 * labelled with its host), and nothing of a daemon's own status, which only the daemon that has it can tell.
 */
export function fleetMetricsSource(
  store: MetricsStores,
  upstreams: readonly Upstream[],
  options: ReleaseMetricsOptions & { build: BuildInfo },
): MetricsSource {
  return {
    build: options.build,
    releaseFigures: releaseFigureReader(store, upstreams, options),
    changeMark: () => store.resultsMark(),
  };
}

/** Every done session, however many: listSessions wants a limit. */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * Reads the sessions, releases and checks on each call, so what is served is what the store holds; the samples of
 * done sessions are read once (SessionCache). The samples that count are the release sides of done sessions, without
 * the sessions of checks marked invalid: analysis.releaseSides, the one rule, which history applies too
 * (seriesReleaseSamples).
 */
export function releaseFigureReader(
  store: MetricsStores,
  upstreams: readonly Upstream[],
  options: ReleaseMetricsOptions,
): () => Promise<ReleaseFigureRow[]> {
  const cache = new SessionCache(store);
  const medians = new MedianMemo();
  return async () => {
    const done = await store.listSessions({ limit: ALL, state: 'done' });
    const runner = options.runner;
    const sessions = runner === undefined ? done : done.filter((s) => ranBy(s.settings, runner));
    const rows: ReleaseFigureRow[] = [];
    for (const upstream of upstreams)
      rows.push(...(await seriesFigures(store, upstream, sessions, { cache, medians }, options)));
    cache.sweep();
    medians.sweep();
    return rows;
  };
}

interface Caches {
  cache: SessionCache;
  medians: MedianMemo;
}

/** Reads one series from the store; analysis.seriesReleaseFigures computes its figures; they leave in base units. */
async function seriesFigures(
  store: MetricsStores,
  upstream: Upstream,
  sessions: readonly SessionRecord[],
  { cache, medians }: Caches,
  { versionsPerSeries: limit, thresholds, confidence, instructions }: ReleaseMetricsOptions,
): Promise<ReleaseFigureRow[]> {
  const [releases, checks, open] = await Promise.all([
    store.listReleases(upstream.name),
    store.listChecks(upstream.name),
    store.listEvents({ upstream: upstream.name, state: 'open' }),
  ]);
  const sides = releaseSides(upstream.name, releases, sessions, checks);
  const keptBySetting = newestPerSetting(sides, limit);
  const kept = new Set([...keptBySetting.values()].flatMap((ids) => [...ids]));
  const measured: MeasuredSide[] = [];
  for (const side of sides)
    measured.push({ ...side, tests: (await cache.figures(side.session.id))[side.role].values() });
  const groups = groupReleaseSides(measured);
  const hosts = await hostFacts(store, new Set([...groups.values()].map((g) => g.hostId)));
  const checked = new Map<string, VerdictRecord[]>();
  for (const [key, check] of newestChecksOnHosts(checks, sessions, kept))
    checked.set(key, await cache.verdicts(check.sessionId));
  const chainChecks = await hostChainChecks(groups, upstream, checks, sessions, cache);
  const figures = seriesReleaseFigures({
    groups,
    base: upstream.base?.text,
    kept,
    checked,
    open,
    mediansOf: (group) => medians.of(group),
    chainChecks,
    ...(confidence !== undefined ? { confidence } : {}),
  });
  const lane = await laneFigures(sides, groups, { upstream, checks, sessions, kept, cache }, instructions);
  return figures.flatMap((f) => {
    const host = hosts.get(f.hostId);
    if (keptBySetting.get(f.memory)?.has(f.release.id) !== true) return [];
    const counted = lane.get(`${hostReleaseKey(f.hostId, f.release.id)}\u0000${testKey(f)}`);
    return host === undefined ? [] : [toRow(upstream, host, f, thresholdOf(thresholds, f.test), counted)];
  });
}

/**
 * The instructions lane's figure of each kept release's counted tests on each host (analysis.
 * releaseInstructionFigures: against the host's base straight from stored counts of the same conditions, and the
 * newest valid check's C/B), by host, release and test. The runs of a done session are read once (SessionCache).
 */
async function laneFigures(
  sides: readonly ReleaseSide[],
  groups: ReadonlyMap<string, ReleaseGroup>,
  read: {
    upstream: Upstream;
    checks: readonly CheckRecord[];
    sessions: readonly SessionRecord[];
    kept: ReadonlySet<number>;
    cache: SessionCache;
  },
  settings: InstructionVerdictSettings = DEFAULT_INSTRUCTIONS,
): Promise<Map<string, ReleaseInstructionFigure>> {
  const { cache, kept } = read;
  const laneSides: LaneSide[] = [];
  for (const side of sides) laneSides.push({ ...side, runs: await cache.instructionRuns(side.session.id) });
  const bases = new Map([...seriesBases(groups, read.upstream.base?.text)].map(([host, r]) => [host, r.id]));
  const checked = new Map<string, InstructionVerdict[]>();
  for (const [key, check] of newestChecksOnHosts(read.checks, read.sessions, kept))
    checked.set(key, await cache.instructionVerdicts(check.sessionId));
  const figures = releaseInstructionFigures({ sides: laneSides, bases, settings, checked, kept });
  return new Map(figures.map((f) => [`${hostReleaseKey(f.hostId, f.releaseId)}\u0000${testKey(f)}`, f]));
}

const DEFAULT_INSTRUCTIONS: InstructionVerdictSettings = { threshold: 1.02, testThresholds: {} };

/**
 * The checks each host's chain to its base may use (analysis.chainCandidates), with their verdicts: of every release
 * of the series, not only the exported ones, since a chain goes through older releases.
 */
async function hostChainChecks(
  groups: ReadonlyMap<string, ReleaseGroup>,
  upstream: Upstream,
  checks: readonly CheckRecord[],
  sessions: readonly SessionRecord[],
  cache: SessionCache,
): Promise<Map<number, ChainCheck[]>> {
  const hostOf = new Map(sessions.map((s) => [s.id, s.hostId]));
  const out = new Map<number, ChainCheck[]>();
  for (const [hostId, base] of seriesBases(groups, upstream.base?.text)) {
    const onHost = checks.filter((c) => hostOf.get(c.sessionId) === hostId);
    const chain: ChainCheck[] = [];
    for (const c of chainCandidates(onHost, base.id))
      chain.push({
        releaseId: c.releaseId,
        baselineReleaseId: c.baselineReleaseId,
        verdicts: await cache.verdicts(c.sessionId),
      });
    out.set(hostId, chain);
  }
  return out;
}

/**
 * The newest `limit` releases measured without a memory setting (key undefined), and the newest `limit` under each
 * setting: a compare of new tags under --memory never pushes the checked releases out of /metrics.
 */
function newestPerSetting(
  sides: readonly ReleaseSide[],
  limit: number,
): Map<MemorySettingName | undefined, Set<number>> {
  const bySetting = new Map<MemorySettingName | undefined, ReleaseSide['release'][]>();
  for (const side of sides) {
    const memory = side.session.settings['memory'];
    const setting = isMemorySetting(memory) ? memory : undefined;
    bySetting.set(setting, [...(bySetting.get(setting) ?? []), side.release]);
  }
  return new Map([...bySetting].map(([setting, releases]) => [setting, newestReleases(releases, limit)]));
}

function toRow(
  upstream: Upstream,
  host: HostFacts,
  f: ReleaseFigure,
  threshold: number,
  lane: ReleaseInstructionFigure | undefined,
): ReleaseFigureRow {
  return {
    labels: labelsOf(upstream, host.fingerprintId, f),
    qps: f.figures.qps,
    relativeQps: f.relativeQps,
    relativeQpsLow: f.relativeQpsLow,
    relativeQpsHigh: f.relativeQpsHigh,
    relativeToLastGood: f.relativeToLastGood,
    detectableDrop: f.detectableDrop,
    verdict: f.verdict,
    regressionOpen: f.regressionOpen,
    threshold,
    perOp: basePerOp(f.figures, host.cpus),
    latencyP95Seconds: f.figures.latencyP95Ms / 1000,
    instructionsPerQuery: lane?.perQuery ?? null,
    instructionsRelativeToBase: lane?.relativeToBase ?? null,
    instructionsRelativeToLastGood: lane?.relativeToLastGood ?? null,
  };
}

/** Each exported figure in its metric's base unit; null where the releases' samples lack it (older than the figure). */
function basePerOp(figures: ReleaseFigure['figures'], cpus: number | undefined): ReleaseFigureRow['perOp'] {
  const out: Partial<Record<PerOpField, number | null>> = {};
  for (const f of PER_OP_FIGURES) {
    if (!('metric' in f)) continue;
    const value = figures[f.field];
    out[f.field] = value === undefined || Number.isNaN(value) ? null : TO_BASE_UNIT[f.metric.unit](value, cpus);
  }
  return out;
}

const FingerprintCpus = z.object({ threads: z.number().int().positive() });

interface HostFacts {
  fingerprintId: string;
  cpus: number | undefined;
}

/** Fingerprint id and CPU count (logical CPUs: cpu/o is a percent of all of them) of each host with results. */
async function hostFacts(store: HostStore, hostIds: ReadonlySet<number>): Promise<Map<number, HostFacts>> {
  const facts = new Map<number, HostFacts>();
  for (const id of hostIds) {
    const host = await store.getHost(id);
    if (host === undefined) continue;
    const parsed = FingerprintCpus.safeParse(host.fingerprint);
    facts.set(id, { fingerprintId: host.fingerprintId, cpus: parsed.success ? parsed.data.threads : undefined });
  }
  return facts;
}

function labelsOf(upstream: Upstream, host: string, f: ReleaseFigure): ReleaseFigureRow['labels'] {
  return {
    host,
    flavor: upstream.flavor,
    series: upstream.name,
    version: f.release.version,
    version_key: f.release.versionKey,
    test: f.test,
    threads: String(f.threads),
    profile: upstream.serverProfile,
    ...(f.memory !== undefined ? { memory: f.memory } : {}),
  };
}
