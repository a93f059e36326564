import {
  releaseInstructionFigures,
  releaseSides,
  type InstructionVerdictSettings,
  type LaneSide,
  type ReleaseInstructionFigure,
} from '../analysis/index.js';
import { testKey, type HistoryInstructions, type HistoryTest } from '../model/index.js';
import type { CheckStore, InstructionStore, ReleaseStore, SessionStore } from '../store/index.js';

/** What the lane's history reads: the done sessions that ran the series' releases, their checks and counted runs. */
export type LaneHistoryStores = Pick<ReleaseStore, 'listReleases'> &
  Pick<SessionStore, 'listSessions'> &
  Pick<CheckStore, 'listChecks'> &
  Pick<InstructionStore, 'instructionRuns'>;

/** Every done session, however many: listSessions wants a limit. */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * The lane's figure of each release of a series on one host, against the base release directly from stored figures
 * of the same conditions. The sessions that count are releaseSides' (the one rule: done, not of an invalid check,
 * not a bisection step), as for the QPS figures.
 */
export async function hostInstructionFigures(
  store: LaneHistoryStores,
  upstream: string,
  hostId: number,
  baseReleaseId: number | undefined,
  settings: InstructionVerdictSettings,
): Promise<ReleaseInstructionFigure[]> {
  const [releases, sessions, checks] = await Promise.all([
    store.listReleases(upstream),
    store.listSessions({ limit: ALL, state: 'done' }),
    store.listChecks(upstream),
  ]);
  const onHost = sessions.filter((s) => s.hostId === hostId);
  const runs = new Map<number, Awaited<ReturnType<LaneHistoryStores['instructionRuns']>>>();
  const sides: LaneSide[] = [];
  for (const side of releaseSides(upstream, releases, onHost, checks)) {
    if (!runs.has(side.session.id)) runs.set(side.session.id, await store.instructionRuns(side.session.id));
    sides.push({ ...side, runs: runs.get(side.session.id)! });
  }
  const bases = new Map(baseReleaseId === undefined ? [] : [[hostId, baseReleaseId]]);
  return releaseInstructionFigures({ sides, bases, settings });
}

/**
 * Each history row's lane figures, aligned with the columns (a column of imported results has no release here):
 * the rows of tests no version was counted for are left as they are.
 */
export function withInstructions<T extends HistoryTest>(
  rows: readonly T[],
  columns: ReadonlyArray<{ releaseId?: number }>,
  figures: readonly ReleaseInstructionFigure[],
): T[] {
  const byKey = new Map(figures.map((f) => [`${f.releaseId}\u0000${testKey(f)}`, f]));
  return rows.map((row) => {
    const cells = columns.map((c) => {
      const f = c.releaseId === undefined ? undefined : byKey.get(`${c.releaseId}\u0000${testKey(row)}`);
      return f === undefined ? null : historyCell(f);
    });
    return cells.every((c) => c === null) ? row : { ...row, instructions: cells };
  });
}

function historyCell(f: ReleaseInstructionFigure): HistoryInstructions {
  const v = f.againstBase;
  return {
    perQuery: f.perQuery,
    spread: f.spread,
    repeats: f.repeats,
    relativeToBase: f.relativeToBase,
    low: v?.low ?? null,
    high: v?.high ?? null,
    verdict: v?.kind ?? null,
  };
}
