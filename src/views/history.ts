import {
  baseIndex,
  buildHistory,
  chainCandidates,
  chainHistory,
  newestValidChecks,
  releaseSamplesOf,
  releaseSides,
  thresholdOf,
  type ChainCheck,
  type HistoryTable,
  type InstructionVerdictSettings,
  type MeasuredSide,
  type ReleaseCheckVerdicts,
  type ReleaseSampleRecord,
  type VerdictSettings,
} from '../analysis/index.js';
import { InputError } from '../errors.js';
import type { ResultRow } from '../report/index.js';
import type { HistoryBisection, HistoryView } from '../model/index.js';
import type {
  BisectionStore,
  CheckStore,
  HostStore,
  ImportedResultRecord,
  InstructionStore,
  ReleaseStore,
  ResultsStore,
  SampleStore,
  SessionStore,
} from '../store/index.js';

/**
 * What a series' history reads: releases, sessions and their samples, imported results, the checks, the hosts, the
 * bisections.
 */
export type HistoryStores = HostStore &
  ReleaseStore &
  ResultsStore &
  CheckStore &
  SessionStore &
  SampleStore &
  BisectionStore &
  Pick<InstructionStore, 'instructionRuns'>;

/** Every done session, however many: listSessions wants a limit. */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * The samples that count for the series' releases, by the one rule of analysis.releaseSides (done sessions, sides
 * matched to a release by upstream and tag, checks marked invalid left out), which /metrics applies too.
 */
export async function seriesReleaseSamples(
  store: Pick<HistoryStores, 'listReleases' | 'listSessions' | 'listChecks' | 'sampleFigures'>,
  upstream: string,
): Promise<ReleaseSampleRecord[]> {
  const [releases, sessions, checks] = await Promise.all([
    store.listReleases(upstream),
    store.listSessions({ limit: ALL, state: 'done' }),
    store.listChecks(upstream),
  ]);
  const measured: MeasuredSide[] = [];
  for (const side of releaseSides(upstream, releases, sessions, checks)) {
    const figures = await store.sampleFigures(side.session.id);
    measured.push({ ...side, tests: figures.filter((f) => f.role === side.role) });
  }
  return releaseSamplesOf(measured);
}
import type { Upstream } from '../upstream/index.js';
import { hostInstructionFigures, withInstructions } from './history-instructions.js';
import { hostChanges } from './host-changes.js';
import { parseVersion, rangeIncludes } from '../version/index.js';

export interface HistoryOptions {
  /** The version (or tag) every ratio is relative to; default: the upstream's base, else the oldest version. */
  base?: string;
  /** The host fingerprint id whose results to show; default: the host of the newest session. */
  host?: string;
  /** The thresholds and confidence of the verdicts: drift is a chained estimate under its test's threshold. */
  verdicts?: Pick<VerdictSettings, 'threshold' | 'testThresholds' | 'confidence'>;
  /** Whether imported results fill versions not measured here (default true); false: this host's results alone. */
  imported?: boolean;
  /** The instructions lane's thresholds (instructions_threshold, instructions_test_thresholds): its verdicts. */
  instructions?: InstructionVerdictSettings;
}

const DEFAULT_VERDICTS = { threshold: 0.95, testThresholds: {}, confidence: 0.95 };
const DEFAULT_INSTRUCTIONS: InstructionVerdictSettings = { threshold: 1.02, testThresholds: {} };

/** The results of one series across its versions: measured releases on one host, plus imported rows. */
export async function seriesHistory(
  store: HistoryStores,
  upstream: Upstream,
  options: HistoryOptions = {},
  now = new Date(),
): Promise<HistoryView> {
  const { table, host, hostId, sessions, newestSessionOfHost } = await seriesTable(store, upstream, options.host, {
    withChecks: true,
    withImported: options.imported !== false,
  });
  if (table.columns.length === 0) {
    throw new InputError(
      `series ${JSON.stringify(upstream.name)} has no results yet: check a ` +
        `release (qpswatch check TAG) or import a history (qpswatch import ` +
        `FILE)`,
    );
  }
  const named = options.base ?? upstream.base?.text;
  const base = baseIndex(
    table.columns,
    named === undefined ? oldestPlain(table) : (c) => c.version === named || c.label === named,
  );
  if (base < 0) {
    throw new InputError(
      `base ${JSON.stringify(named)} has no results in series ` +
        `${upstream.name}: use one of ` +
        `${table.columns.map((c) => c.version).join(', ')} (--base, or base: in ` +
        `the upstream's config)`,
    );
  }
  const verdicts = options.verdicts ?? DEFAULT_VERDICTS;
  const confidence = verdicts.confidence ?? DEFAULT_VERDICTS.confidence;
  const chains = await chainChecks(store, upstream, sessions, table.columns[base]?.releaseId);
  const chained = chainHistory(table, base, chains, { confidence, thresholdOf: (test) => thresholdOf(verdicts, test) });
  const bisections = await seriesBisections(store, upstream);
  const lane =
    hostId === undefined
      ? []
      : await hostInstructionFigures(
          store,
          upstream.name,
          hostId,
          table.columns[base]?.releaseId,
          options.instructions ?? DEFAULT_INSTRUCTIONS,
        );
  const changes = hostId === undefined ? [] : await hostChanges(store, newestSessionOfHost, hostId);
  const tests = table.rows.map((row, i) => ({
    ...row,
    chained: chained[i]!,
    threshold: thresholdOf(verdicts, row.test),
  }));
  return {
    series: upstream.name,
    flavor: upstream.flavor,
    baseIndex: base,
    versions: table.columns.map((c) => ({ version: c.version, label: c.label, imported: c.imported })),
    tests: withInstructions(tests, table.columns, lane),
    host,
    confidence,
    generatedAt: now.toISOString(),
    ...(bisections.length > 0 ? { bisections } : {}),
    ...(changes.length > 0 ? { hostChanges: changes } : {}),
  };
}

/** The newest bisection of each release of the series that has one, oldest release first. */
async function seriesBisections(store: HistoryStores, upstream: Upstream): Promise<HistoryBisection[]> {
  const releases = (await store.listReleases(upstream.name)).sort((a, b) => a.versionKey.localeCompare(b.versionKey));
  const out: HistoryBisection[] = [];
  for (const release of releases) {
    const newest = (await store.listBisections({ releaseId: release.id, limit: 1 }))[0];
    if (newest === undefined) continue;
    out.push({
      tag: release.tag,
      outcome: newest.outcome,
      ...(newest.firstBad !== undefined ? { firstBad: newest.firstBad } : {}),
      candidates: newest.candidates.length,
      builds: newest.builds,
      ...(newest.error !== undefined ? { error: newest.error } : {}),
    });
  }
  return out;
}

/**
 * Without a named base: the oldest version with a result measured without a memory setting (columns are in version
 * order), so a compare of an older tag under --memory does not take the base away from the checks' rows; undefined
 * (the oldest version) when every result has a memory setting.
 */
function oldestPlain(table: HistoryTable): ((column: HistoryTable['columns'][number]) => boolean) | undefined {
  const plain = new Set(
    table.columns.filter((_, i) => table.rows.some((row) => row.memory === undefined && row.figures[i] !== null)),
  );
  return plain.size === 0 ? undefined : (column) => plain.has(column);
}

/**
 * Every result of the series as CSV rows, one per version and test; a version measured here wins over an import.
 * Results under a memory setting are left out: the results file has no such column, and its rows would collide
 * with the same test's rows measured without one.
 */
export async function seriesResults(store: HistoryStores, upstream: Upstream): Promise<ResultRow[]> {
  const { table } = await seriesTable(store, upstream, undefined);
  return table.rows
    .filter((row) => row.memory === undefined)
    .flatMap((row) =>
      table.columns.flatMap((column, i) => {
        const f = row.figures[i];
        return f
          ? [{ flavor: upstream.flavor, version: column.version, test: row.test, threads: row.threads, ...f }]
          : [];
      }),
    );
}

async function seriesTable(
  store: HistoryStores,
  upstream: Upstream,
  hostId: string | undefined,
  { withChecks = false, withImported = true }: { withChecks?: boolean; withImported?: boolean } = {},
): Promise<{
  table: HistoryTable;
  host: string;
  hostId: number | undefined;
  sessions: Set<number>;
  newestSessionOfHost: Map<number, number>;
}> {
  const [releases, samples, imported] = await Promise.all([
    store.listReleases(upstream.name),
    seriesReleaseSamples(store, upstream.name),
    store.listImportedResults(),
  ]);
  const host = await chooseHost(store, samples, hostId);
  const onHost = samples.filter((s) => s.hostId === host?.id);
  const inSeries = withImported ? imported.filter((r) => inSeriesOf(upstream, r)) : [];
  const label = host?.fingerprintId ?? (inSeries.length > 0 ? 'imported results only' : 'none');
  const sessions = new Set(onHost.map((s) => s.sessionId));
  const checks = withChecks ? await newestChecks(store, upstream, sessions) : [];
  const newestSessionOfHost = new Map<number, number>();
  for (const s of samples)
    newestSessionOfHost.set(s.hostId, Math.max(s.sessionId, newestSessionOfHost.get(s.hostId) ?? 0));
  return {
    table: buildHistory(releases, onHost, inSeries, checks),
    host: label,
    hostId: host?.id,
    sessions,
    newestSessionOfHost,
  };
}

/**
 * The checks the chain to the base may use among the sessions shown (one host), with their verdicts; none without a
 * measured base.
 */
async function chainChecks(
  store: HistoryStores,
  upstream: Upstream,
  sessions: ReadonlySet<number>,
  baseReleaseId: number | undefined,
): Promise<ChainCheck[]> {
  if (baseReleaseId === undefined) return [];
  const onHost = (await store.listChecks(upstream.name)).filter((c) => sessions.has(c.sessionId));
  return Promise.all(
    chainCandidates(onHost, baseReleaseId).map(async (c) => ({
      releaseId: c.releaseId,
      baselineReleaseId: c.baselineReleaseId,
      verdicts: await store.verdictsOfSession(c.sessionId),
    })),
  );
}

/**
 * Each release's newest valid check among the sessions shown (one host), with its verdicts: the detectable drop per
 * version.
 */
async function newestChecks(
  store: HistoryStores,
  upstream: Upstream,
  sessions: ReadonlySet<number>,
): Promise<ReleaseCheckVerdicts[]> {
  const newest = newestValidChecks(await store.listChecks(upstream.name), (c) =>
    sessions.has(c.sessionId) ? c.releaseId : undefined,
  );
  return Promise.all(
    [...newest.entries()].map(async ([releaseId, check]) => ({
      releaseId,
      verdicts: await store.verdictsOfSession(check.sessionId),
    })),
  );
}

/** Results from different hosts are never mixed: one host, the one named or the newest session's. */
async function chooseHost(
  store: HistoryStores,
  samples: readonly ReleaseSampleRecord[],
  fingerprintId: string | undefined,
): Promise<{ id: number; fingerprintId: string } | undefined> {
  const ids = [...new Set(samples.map((s) => s.hostId))];
  const hosts = (await Promise.all(ids.map((id) => store.getHost(id)))).flatMap((h) => (h ? [h] : []));
  if (fingerprintId !== undefined) {
    const host = hosts.find((h) => h.fingerprintId === fingerprintId);
    if (host === undefined)
      throw new InputError(
        `host ${JSON.stringify(fingerprintId)} has no results in this series: ` +
          `use one of ${hosts.map((h) => h.fingerprintId).join(', ') || '(none)'}`,
      );
    return host;
  }
  const newest = samples.reduce<ReleaseSampleRecord | undefined>(
    (a, s) => (a === undefined || s.sessionId > a.sessionId ? s : a),
    undefined,
  );
  return hosts.find((h) => h.id === newest?.hostId);
}

function inSeriesOf(upstream: Upstream, row: ImportedResultRecord): boolean {
  return row.flavor === upstream.flavor && rangeIncludes(upstream.series, parseVersion(row.version));
}
