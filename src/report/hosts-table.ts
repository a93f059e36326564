import { testKey, type HistoryView, type HostsHistoryView, type TestId } from '../model/index.js';
import { relativeQpsRow, type HistoryRelativeQps } from './history-figures.js';
import { historyLevels, type HistoryLevel } from './history-levels.js';

/** One column of the side-by-side table: a test on one host (its index in HostsHistoryView.hosts). */
export interface HostsTableColumn extends TestId {
  host: number;
}

/**
 * Relative QPS of one level (threads, memory setting) side by side: a row per version of the view, a column per test
 * and host. Each cell is the host's own relative QPS against the base measured on it (chained, or the median ratio);
 * null where the host did not measure the version, or not the base.
 */
export interface HostsLevelTable {
  level: HistoryLevel;
  columns: readonly HostsTableColumn[];
  /** aligned with HostsHistoryView.versions, each row aligned with the columns */
  rows: ReadonlyArray<ReadonlyArray<HistoryRelativeQps | null>>;
}

/**
 * The side-by-side tables, one per level: tests in the order the hosts list them (first host first), each followed
 * by one column per host in the view's host order. A pure function of the view: no host's QPS is ever divided by
 * another's, each value comes from that host's own history.
 */
export function hostsSideBySide(view: HostsHistoryView): HostsLevelTable[] {
  const histories = view.hosts.map((h) => h.history);
  const tests = new Map<string, TestId>();
  for (const history of histories) for (const row of history?.tests ?? []) tests.set(testKey(row), row);
  const cells = histories.map((history) => (history === null ? new Map() : cellsByTest(history, view.versions)));
  return historyLevels([...tests.values()]).map((level) => {
    const atLevel = [...tests.values()].filter((t) => t.threads === level.threads && t.memory === level.memory);
    const columns = atLevel.flatMap((t) => view.hosts.map((_, host) => ({ ...t, host })));
    const rows = view.versions.map((_, v) => columns.map((c) => cells[c.host]?.get(testKey(c))?.[v] ?? null));
    return { level, columns, rows };
  });
}

/** A host's relative QPS per test, re-aligned from its own versions to the view's. */
function cellsByTest(
  history: HistoryView,
  versions: readonly string[],
): Map<string, ReadonlyArray<HistoryRelativeQps | null>> {
  const at = new Map(history.versions.map((v, i) => [v.version, i]));
  const out = new Map<string, ReadonlyArray<HistoryRelativeQps | null>>();
  for (const row of history.tests) {
    const own = relativeQpsRow(history, row);
    out.set(
      testKey(row),
      versions.map((version) => {
        const i = at.get(version);
        return i === undefined ? null : (own[i] ?? null);
      }),
    );
  }
  return out;
}
