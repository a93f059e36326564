import {
  figureOf,
  mapFigures,
  testIdOf,
  testKey,
  type Figures,
  type HistoryChained,
  type TestId,
} from '../model/index.js';
import type { ImportedResultRecord, ReleaseRecord } from '../store/index.js';
import type { ReleaseSampleRecord } from './release-figures.js';
import { median } from './median.js';
import { baseLink, chainByTest, chainSteps, type ChainCheck, type ChainLink } from './series-chain.js';

export interface HistoryColumn {
  version: string;
  versionKey: string;
  /** The tag for a measured release; the version for an imported one. */
  label: string;
  imported: boolean;
  /** The measured release's id; absent for an imported column. */
  releaseId?: number;
}

export interface HistoryRow extends TestId {
  /** Aligned with the columns: a version's medians over every sample of the test (or the imported row as it
   * came); null where the version has no result for the test. */
  figures: Array<Figures | null>;
  /** Aligned with the columns: the detectable drop of the release's newest valid check; null where there is none. */
  detectableDrop: Array<number | null>;
}

/** The verdicts of one release's newest valid check on the history's host (store VerdictRecord fits). */
export interface ReleaseCheckVerdicts {
  releaseId: number;
  verdicts: ReadonlyArray<TestId & { detectableDrop: number | null }>;
}

export interface HistoryTable {
  columns: HistoryColumn[];
  rows: HistoryRow[];
}

/**
 * History across the versions of a series: for each measured release, the median of each figure over all its
 * samples (from every done, valid session that ran it on the chosen host); imported rows fill versions that were
 * not measured here. Columns in version order, rows in the order tests were first seen.
 */
export function buildHistory(
  releases: readonly ReleaseRecord[],
  samples: readonly ReleaseSampleRecord[],
  imported: readonly ImportedResultRecord[],
  checks: readonly ReleaseCheckVerdicts[] = [],
): HistoryTable {
  const byRelease = new Map<number, ReleaseSampleRecord[]>();
  for (const s of samples) byRelease.set(s.releaseId, [...(byRelease.get(s.releaseId) ?? []), s]);
  const measured = releases.filter((r) => byRelease.has(r.id));
  const measuredVersions = new Set(measured.map((r) => r.version));
  // A measured version wins over an import, but only one measured without a memory setting: an imported row has none.
  const plainVersions = new Set(
    measured.filter((r) => byRelease.get(r.id)!.some((s) => s.memory === undefined)).map((r) => r.version),
  );
  const importedOnly = imported.filter((r) => !plainVersions.has(r.version));

  const columns: HistoryColumn[] = [
    ...measured.map((r) => ({
      version: r.version,
      versionKey: r.versionKey,
      label: r.tag,
      imported: false,
      releaseId: r.id,
    })),
    ...uniqueBy(
      importedOnly.filter((r) => !measuredVersions.has(r.version)),
      (r) => r.version,
    ).map((r) => ({ version: r.version, versionKey: r.versionKey, label: r.version, imported: true })),
  ].sort((a, b) => (a.versionKey < b.versionKey ? -1 : a.versionKey > b.versionKey ? 1 : 0));

  const cells = new Map<string, Map<string, Figures>>();
  const order: TestId[] = [];
  const put = (t: TestId, version: string, figures: Figures): void => {
    if (!cells.has(testKey(t))) {
      cells.set(testKey(t), new Map());
      order.push(testIdOf(t));
    }
    cells.get(testKey(t))!.set(version, figures);
  };
  for (const release of measured) {
    const groups = new Map<string, ReleaseSampleRecord[]>();
    for (const s of byRelease.get(release.id)!) groups.set(testKey(s), [...(groups.get(testKey(s)) ?? []), s]);
    for (const group of groups.values()) put(group[0]!, release.version, medians(group));
  }
  for (const row of importedOnly) put(row, row.version, pick(row));

  // A check belongs to a measured column (an imported one has no check here): keyed by version, as the columns are.
  const drops = new Map<string, number>();
  const versionOf = new Map(measured.map((r) => [r.id, r.version]));
  for (const check of checks) {
    const version = versionOf.get(check.releaseId);
    if (version === undefined) continue;
    for (const v of check.verdicts)
      if (v.detectableDrop !== null) drops.set(`${testKey(v)}\u0000${version}`, v.detectableDrop);
  }
  const rows = order.map((t) => ({
    ...t,
    figures: columns.map((c) => cells.get(testKey(t))!.get(c.version) ?? null),
    detectableDrop: columns.map((c) => (c.imported ? null : (drops.get(`${testKey(t)}\u0000${c.version}`) ?? null))),
  }));
  return { columns, rows };
}

function medians(group: readonly ReleaseSampleRecord[]): Figures {
  return mapFigures((field) => median(group.map((s) => figureOf(s, field))));
}

function pick(row: Figures): Figures {
  return mapFigures((field) => figureOf(row, field));
}

function uniqueBy<T>(items: readonly T[], by: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(by(item)) ? false : (seen.add(by(item)), true)));
}

/**
 * Each row's chained relative QPS against the base column, aligned with the columns (docs/verdicts.md, "Against the
 * base: chained estimates"), and where a step began. `checks` are the chain's candidates on the history's host
 * (chainCandidates). Nothing is chained when the base is an imported column: no session ran against it.
 */
export function chainHistory(
  table: HistoryTable,
  base: number,
  checks: readonly ChainCheck[],
  settings: { confidence: number; thresholdOf: (test: string) => number },
): Array<Array<HistoryChained | null>> {
  const baseId = table.columns[base]?.releaseId;
  if (baseId === undefined) return table.rows.map(() => table.columns.map(() => null));
  const byTest = chainByTest(baseId, checks, settings.confidence);
  return table.rows.map((row) => {
    const all = new Map(byTest.get(testKey(row)) ?? []);
    all.set(baseId, baseLink(baseId));
    // The base's own cell is 1 only where the base measured the test; a version before the base is not chained.
    const links = table.columns.map((c, i): ChainLink | null =>
      c.releaseId === undefined || row.figures[i] === null || i < base ? null : (all.get(c.releaseId) ?? null),
    );
    const steps = chainSteps(links, all, settings.thresholdOf(row.test));
    return links.map((link, i) => {
      if (link === null) return null;
      const step = steps[i];
      return {
        relativeQps: link.relativeQps,
        low: link.low,
        high: link.high,
        steps: link.steps,
        step: step === null || step === undefined ? null : { direction: step.direction, ratio: step.ratio },
      };
    });
  });
}
