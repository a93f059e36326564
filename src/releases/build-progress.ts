import type { BuildProgress } from '../compile/index.js';
import type { BuildWorkProgress } from '../model/index.js';
import type { ReleaseRecord, ReleaseStore } from '../store/index.js';

/** Below this share of the compile, a rate says little (cmake's first targets are generators, not compiles). */
const MIN_RATE_RATIO = 0.02;

export interface BuildEtaInput {
  /** When the build (configure, compile, install) started; ms. */
  startedAt: number;
  now: number;
  /** The series' last good build's duration in seconds; null when the series has none. */
  lastBuildSeconds: number | null;
  /** The compile's share done and when the compile step started (ms); null before it starts. */
  ratio: number;
  compileStartedAt: number | null;
}

/**
 * When the build is expected to end (ms), and from what. The series' last build says best how long a build of it
 * takes (same sources, mostly the same ccache hits), so its end is start + that duration while that is still ahead.
 * Without one, or once this build runs past it, the compile's rate so far: its elapsed time over the share done,
 * times the share left (the install, seconds long, is not counted).
 */
export function buildEta(input: BuildEtaInput): Pick<BuildWorkProgress, 'etaFrom'> & { endsAt: number | null } {
  if (input.lastBuildSeconds !== null) {
    const endsAt = input.startedAt + input.lastBuildSeconds * 1000;
    if (endsAt > input.now) return { endsAt, etaFrom: 'last_build' };
  }
  if (input.compileStartedAt !== null && input.ratio >= MIN_RATE_RATIO && input.ratio < 1) {
    const elapsed = input.now - input.compileStartedAt;
    return { endsAt: input.now + (elapsed * (1 - input.ratio)) / input.ratio, etaFrom: 'rate' };
  }
  return { endsAt: null, etaFrom: null };
}

/** The newest good build of the release's upstream: how long it took, in seconds; null when there is none. */
export async function lastBuildSeconds(store: ReleaseStore, release: ReleaseRecord): Promise<number | null> {
  const ofSeries = new Set((await store.listReleases(release.upstream)).map((r) => r.id));
  let newest: { endedAt: string; seconds: number } | undefined;
  for (const b of await store.listBuilds()) {
    if (b.state !== 'built' || b.endedAt === null || b.durationSeconds === null || !ofSeries.has(b.releaseId)) continue;
    if (newest === undefined || b.endedAt > newest.endedAt) newest = { endedAt: b.endedAt, seconds: b.durationSeconds };
  }
  return newest?.seconds ?? null;
}

/**
 * Turns compile's build events into the daemon's progress of one build: the step, the [n/m] or percent, and its end.
 * Configure counts as 0 and the install as 1 of the compile's share.
 */
export function buildProgressReporter(
  tag: string,
  lastSeconds: number | null,
  report: (work: BuildWorkProgress) => void,
  now: () => number = Date.now,
): (event: BuildProgress) => void {
  const startedAt = now();
  let compileStartedAt: number | null = null;
  let last: Pick<BuildWorkProgress, 'done' | 'total' | 'ratio'> = { done: null, total: null, ratio: 0 };
  return (event) => {
    if (event.event === 'fail') return;
    const at = now();
    if (event.phase === 'build' && event.event === 'start') compileStartedAt = at;
    if (event.event === 'progress' && event.compile !== undefined)
      last = { done: event.compile.done, total: event.compile.total, ratio: event.compile.ratio };
    if (event.phase === 'install' || (event.phase === 'build' && event.event === 'end')) last = { ...last, ratio: 1 };
    const eta = buildEta({ startedAt, now: at, lastBuildSeconds: lastSeconds, ratio: last.ratio, compileStartedAt });
    report({
      kind: 'build',
      tag,
      step: event.phase,
      ...last,
      startedAt: new Date(startedAt).toISOString(),
      endsAt: eta.endsAt === null ? null : new Date(eta.endsAt).toISOString(),
      etaFrom: eta.etaFrom,
    });
  };
}
