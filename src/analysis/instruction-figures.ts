import { isMemorySetting, testIdOf, testKey, type InstructionVerdict, type TestId } from '../model/index.js';
import type { InstructionRunRecord } from '../store/index.js';
import {
  instructionSide,
  instructionThreshold,
  judgeInstructionTest,
  perQuery,
  type InstructionVerdictSettings,
} from './instructions.js';
import { hostReleaseKey, type ReleaseSide } from './release-figures.js';

/**
 * The instructions lane's figures of each release of a series, as history and /metrics show them (docs/verdicts.md,
 * "Instructions per query"): per release, test and host the median instructions per query over every repeat of every
 * session that counted the release's binary under the same conditions, and its ratio to the base release's stored
 * figure of the same condition key, directly: counts do not depend on how fast the host was, so no chain of checks.
 */

/** One session side of a release (releaseSides: the one rule of which sessions count) with that side's lane runs. */
export type LaneSide = ReleaseSide & { runs: readonly InstructionRunRecord[] };

/** One release's lane figure of one test on one host. */
export interface ReleaseInstructionFigure extends TestId {
  hostId: number;
  releaseId: number;
  /** Median instructions per query over the repeats pooled (the newest run's binary and conditions). */
  perQuery: number;
  /** (max - min) / median of those repeats. */
  spread: number;
  repeats: number;
  buildKey: string;
  conditionKey: string;
  /** Instructions per query / the base's of the same condition key: 1 for the base itself; null without one. */
  relativeToBase: number | null;
  /** The release judged against the base's stored figure (C/B, bounds, verdict); null for the base and without one. */
  againstBase: InstructionVerdict | null;
  /** C/B of the release's newest valid check on the host (against the last good of its day); null: none counted. */
  relativeToLastGood: number | null;
}

export interface InstructionFigureInput {
  sides: readonly LaneSide[];
  /** The base release of each host (seriesBases, or the history's base column), by host id. */
  bases: ReadonlyMap<number, number>;
  settings: InstructionVerdictSettings;
  /** The lane's verdicts of each release's newest valid check on each host, by hostReleaseKey. */
  checked?: ReadonlyMap<string, readonly InstructionVerdict[]>;
  /** The releases to give figures for; a release left out still serves as the base. All when absent. */
  kept?: ReadonlySet<number>;
}

interface RunGroup extends TestId {
  hostId: number;
  releaseId: number;
  runs: InstructionRunRecord[];
}

/** The figures of each kept release's lane tests on each host, in the order the groups are first seen. */
export function releaseInstructionFigures(input: InstructionFigureInput): ReleaseInstructionFigure[] {
  const groups = groupRuns(input.sides);
  const checked = new Map<string, InstructionVerdict>();
  for (const [key, verdicts] of input.checked ?? [])
    for (const v of verdicts) checked.set(`${key}\u0000${testKey(v)}`, v);
  const out: ReleaseInstructionFigure[] = [];
  for (const group of groups.values()) {
    if (input.kept !== undefined && !input.kept.has(group.releaseId)) continue;
    const own = newestFigureRuns(group.runs);
    const values = own.map(perQuery);
    const side = instructionSide(values);
    const baseId = input.bases.get(group.hostId);
    const against = againstBase(group, own[0]!.conditionKey, baseId, groups, values, input.settings);
    const key = hostReleaseKey(group.hostId, group.releaseId);
    out.push({
      ...testIdOf(group),
      hostId: group.hostId,
      releaseId: group.releaseId,
      perQuery: side.median,
      spread: side.spread,
      repeats: values.length,
      buildKey: own[0]!.buildKey,
      conditionKey: own[0]!.conditionKey,
      relativeToBase: group.releaseId === baseId ? 1 : (against?.ratio ?? null),
      againstBase: against ?? null,
      relativeToLastGood: checked.get(`${key}\u0000${testKey(group)}`)?.ratio ?? null,
    });
  }
  return out;
}

const groupKey = (hostId: number, releaseId: number, t: TestId): string =>
  `${hostReleaseKey(hostId, releaseId)}\u0000${testKey(t)}`;

/** Every side's runs by host, release and test (with the side's memory setting). */
function groupRuns(sides: readonly LaneSide[]): Map<string, RunGroup> {
  const groups = new Map<string, RunGroup>();
  for (const side of sides) {
    const memory = side.session.settings['memory'];
    for (const run of side.runs) {
      if (run.role !== side.role) continue;
      const id: TestId = { test: run.test, threads: run.threads, ...(isMemorySetting(memory) ? { memory } : {}) };
      const key = groupKey(side.session.hostId, side.release.id, id);
      const group = groups.get(key) ?? { ...id, hostId: side.session.hostId, releaseId: side.release.id, runs: [] };
      group.runs.push(run);
      groups.set(key, group);
    }
  }
  return groups;
}

/**
 * The runs one figure pools: those of the newest run's binary and condition key (a release counted again under other
 * conditions, a newer valgrind or another load, starts a new figure; the old runs are not mixed in).
 */
function newestFigureRuns(runs: readonly InstructionRunRecord[], conditionKey?: string): InstructionRunRecord[] {
  const candidates = conditionKey === undefined ? runs : runs.filter((r) => r.conditionKey === conditionKey);
  const newest = [...candidates].sort((a, b) => b.sessionId - a.sessionId || b.id - a.id)[0];
  if (newest === undefined) return [];
  return candidates.filter((r) => r.buildKey === newest.buildKey && r.conditionKey === newest.conditionKey);
}

/** The release against the base's runs of the same condition key on the host; undefined for the base or none. */
function againstBase(
  group: RunGroup,
  conditionKey: string,
  baseId: number | undefined,
  groups: ReadonlyMap<string, RunGroup>,
  values: readonly number[],
  settings: InstructionVerdictSettings,
): InstructionVerdict | undefined {
  if (baseId === undefined || baseId === group.releaseId) return undefined;
  const base = groups.get(groupKey(group.hostId, baseId, group));
  const theirs = base === undefined ? [] : newestFigureRuns(base.runs, conditionKey);
  if (theirs.length === 0) return undefined;
  return judgeInstructionTest(group, theirs.map(perQuery), values, instructionThreshold(settings, group.test));
}
