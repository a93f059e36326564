import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { compareVersions, parseVersion, type Version } from '../version/index.js';
import { INSTALL_MARKER } from './build-paths.js';

/** One installed build, as the store knows it. */
export interface BuildEntry {
  readonly key: string;
  /** The release version, e.g. "10.11.9". */
  readonly version: string;
  /** <state>/builds/<key>/install */
  readonly installDir: string;
  /** When a session last ran it: a Date, epoch milliseconds or an ISO text. */
  readonly lastUsedAt: Date | number | string;
}

export interface PruneInput {
  readonly builds: readonly BuildEntry[];
  /** Never removed: the base release and each series' last good build. */
  readonly keep: ReadonlySet<string>;
  /** Also kept: the builds of the N newest versions (every profile of them), the next comparisons' baselines. */
  readonly keepLatest: number;
}

export type KeepReason = 'protected' | 'latest';

export interface PrunePlan {
  readonly keep: ReadonlyArray<{ readonly build: BuildEntry; readonly reason: KeepReason }>;
  /** Least recently used first, so a caller that needs only some space can stop early. */
  readonly remove: readonly BuildEntry[];
}

/** Which builds to delete. Plain data in and out: nothing is touched until applyPrune. */
export function planPrune(input: PruneInput): PrunePlan {
  if (!Number.isInteger(input.keepLatest) || input.keepLatest < 0)
    throw new TypeError(`planPrune: keepLatest must be a whole number >= 0, got ${input.keepLatest}`);
  const parsed = input.builds.map((build) => ({ build, version: parseVersion(build.version), usedAt: millis(build) }));
  const latest = newestVersions(
    parsed.map((p) => p.version),
    input.keepLatest,
  );
  const keep: Array<{ build: BuildEntry; reason: KeepReason }> = [];
  const remove: Array<{ build: BuildEntry; usedAt: number }> = [];
  for (const p of parsed) {
    if (input.keep.has(p.build.key)) keep.push({ build: p.build, reason: 'protected' });
    else if (latest.has(p.version.text)) keep.push({ build: p.build, reason: 'latest' });
    else remove.push({ build: p.build, usedAt: p.usedAt });
  }
  remove.sort((a, b) => a.usedAt - b.usedAt);
  return { keep, remove: remove.map((r) => r.build) };
}

function newestVersions(versions: readonly Version[], n: number): Set<string> {
  const distinct = [...new Map(versions.map((v) => [v.text, v])).values()];
  distinct.sort((a, b) => compareVersions(b, a));
  return new Set(distinct.slice(0, n).map((v) => v.text));
}

function millis(build: BuildEntry): number {
  const ms =
    build.lastUsedAt instanceof Date
      ? build.lastUsedAt.getTime()
      : typeof build.lastUsedAt === 'number'
        ? build.lastUsedAt
        : Date.parse(build.lastUsedAt);
  if (!Number.isFinite(ms))
    throw new TypeError(`build ${build.key}: lastUsedAt is not a time: ${String(build.lastUsedAt)}`);
  return ms;
}

/**
 * Deletes the planned builds: the marker first, so a build deleted half way reads as unfinished, then the
 * build's folder. Only folders laid out as builds/<key>/install are touched. Returns the folders removed.
 */
export async function applyPrune(plan: PrunePlan): Promise<string[]> {
  const removed: string[] = [];
  for (const build of plan.remove) {
    const root = dirname(build.installDir);
    if (basename(build.installDir) !== 'install' || basename(root) !== build.key) {
      throw new TypeError(
        `build ${build.key}: ${build.installDir} is not laid out as builds/${build.key}/install; not deleting it`,
      );
    }
    await rm(join(root, INSTALL_MARKER), { force: true });
    await rm(root, { recursive: true, force: true });
    removed.push(root);
  }
  return removed;
}
