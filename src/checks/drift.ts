import {
  chainStepDf,
  chainToBase,
  driftSuspected,
  newestValidChecks,
  type ChainedEstimate,
  type ChainStep,
} from '../analysis/index.js';
import { InputError } from '../errors.js';
import { testKey, type TestId, type Verdict } from '../model/index.js';
import type { ChainedTest } from '../notify/index.js';
import type {
  CheckRecord,
  CheckStore,
  ReleaseRecord,
  ReleaseStore,
  TriageRecord,
  VerdictRecord,
} from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { compareVersions, parseVersion } from '../version/index.js';

/**
 * The write side of drift (docs/verdicts.md, "Drift against the base"): which release is a series' base, when a
 * check is done directly against it, and which tests of a check need a confirming session against it. The
 * decisions are pure functions of the stored checks and verdicts; checkRelease runs the sessions they ask for.
 */

export class NoSeriesBaseError extends InputError {
  constructor(readonly upstream: Upstream) {
    super(
      upstream.base !== undefined
        ? `upstream ${JSON.stringify(upstream.name)} names base ` +
            `${upstream.base.text}, which is not among its releases: fix base: in ` +
            `its config, or run \`qpswatch discover\` if the tag is new`
        : `upstream ${JSON.stringify(upstream.name)} has no base release yet: ` +
            `check its first release (\`qpswatch check TAG\`), or set base: in its ` +
            `config (e.g. base: "10.11.1")`,
    );
  }
}

export class BaseNotBuiltError extends InputError {
  constructor(
    readonly upstream: string,
    readonly tag: string,
  ) {
    super(
      `the base release ${JSON.stringify(tag)} of upstream ` +
        `${JSON.stringify(upstream)} is not built: run \`qpswatch build ${tag}\` ` +
        `first`,
    );
  }
}

export class NotAfterBaseError extends InputError {
  constructor(tag: string, upstream: string, base: string) {
    super(
      `release ${JSON.stringify(tag)} is not newer than ` +
        `${JSON.stringify(base)}, the base of upstream ` +
        `${JSON.stringify(upstream)}: a check against the base needs a newer ` +
        `release`,
    );
  }
}

/**
 * A series' base, as report and the chain read it: the upstream's `base:` when set, else the oldest release that a
 * valid check judged or compared against (the series' first last good). Undefined when there is none yet.
 */
export function seriesBase(
  upstream: Pick<Upstream, 'base'>,
  releases: readonly ReleaseRecord[],
  checks: readonly CheckRecord[],
): ReleaseRecord | undefined {
  const base = upstream.base;
  if (base !== undefined) return releases.find((r) => compareVersions(parseVersion(r.version), base) === 0);
  const measured = new Set(checks.filter((c) => !c.invalid).flatMap((c) => [c.releaseId, c.baselineReleaseId]));
  return releases
    .filter((r) => measured.has(r.id))
    .sort((a, b) => (a.versionKey < b.versionKey ? -1 : a.versionKey > b.versionKey ? 1 : 0))[0];
}

/**
 * The checks a chain is built from: per release, its newest valid check, and its newest valid check against the base.
 */
export function chainChecks(checks: readonly CheckRecord[], baseId: number): CheckRecord[] {
  const newest = newestValidChecks(checks, (c) => c.releaseId);
  const direct = newestValidChecks(checks, (c) => (c.baselineReleaseId === baseId ? c.releaseId : undefined));
  return [...new Set([...newest.values(), ...direct.values()])];
}

/**
 * Chain steps per test (testKey) from checks and their verdicts. A verdict without a standard error (stored before
 * logSe existed) is no step: the chain of that test breaks there, and the releases above it have no estimate.
 */
export function stepsByTest(
  checks: readonly CheckRecord[],
  verdictsOf: ReadonlyMap<
    number,
    ReadonlyArray<Pick<Verdict, 'test' | 'threads' | 'relativeQps' | 'logSe' | 'logSeDf'> & { pairs?: number | null }>
  >,
  tagOf: ReadonlyMap<number, string>,
): Map<string, ChainStep[]> {
  const steps = new Map<string, ChainStep[]>();
  for (const check of checks) {
    const release = tagOf.get(check.releaseId);
    const baseline = tagOf.get(check.baselineReleaseId);
    if (release === undefined || baseline === undefined) continue;
    for (const v of verdictsOf.get(check.sessionId) ?? []) {
      if (v.logSe === null || v.logSe === undefined || !(v.relativeQps > 0)) continue;
      const key = testKey(v);
      steps.set(key, [
        ...(steps.get(key) ?? []),
        { release, baseline, logEstimate: Math.log(v.relativeQps), logSe: v.logSe, ...chainStepDf(v) },
      ]);
    }
  }
  return steps;
}

/** A test whose chained estimate against the base is under its threshold: to be confirmed by a direct session. */
export interface DriftSuspicion extends TestId {
  chained: ChainedEstimate;
  threshold: number;
  /**
   * The release a person accepted that the drop was measured from, when there is one on the chain (acceptedReference).
   */
  since?: string;
  /** Every release of the series with a chained estimate of this test (the drift email's chained series), unordered. */
  series: ChainedEstimate[];
}

/**
 * The tests of a normal check that need a confirming session against the base: their chained estimate is under
 * their threshold (driftSuspected) and came through at least one other release. A chain of one step is a direct
 * session against the base already, and so is its verdict. A test that regressed in the check itself is left out:
 * its regression event already alerts on the same drop, and a second email would tell it twice.
 * `accepted` is the newest release below this one that a person accepted: its level is the new normal, so the drop
 * is measured from its own chained estimate when it has one. Without that, every release after an accepted drift
 * would be confirmed, and alerted, again.
 */
export function suspectedDrifts(
  release: string,
  base: string,
  steps: ReadonlyMap<string, readonly ChainStep[]>,
  verdicts: readonly Verdict[],
  accepted?: string,
): DriftSuspicion[] {
  if (release === base) return [];
  const suspicions: DriftSuspicion[] = [];
  for (const v of verdicts) {
    if (v.kind === 'regression') continue;
    // The chained interval at the check's own confidence.
    const chains = chainToBase(base, steps.get(testKey(v)) ?? [], v.confidence);
    const chained = chains.get(release);
    if (chained === undefined || chained.steps < 2) continue;
    const from = accepted === undefined || accepted === base ? undefined : chains.get(accepted);
    const drop = from === undefined ? chained : { relativeQps: Math.exp(chained.logEstimate - from.logEstimate) };
    if (driftSuspected(drop, v.threshold))
      suspicions.push({
        test: v.test,
        threads: v.threads,
        chained,
        threshold: v.threshold,
        ...(from !== undefined ? { since: from.release } : {}),
        series: [...chains.values()],
      });
  }
  return suspicions;
}

/**
 * The newest release older than `release` (and newer than the base) that a person accepted: the level taken as normal.
 */
export function acceptedReference(
  release: ReleaseRecord,
  base: ReleaseRecord,
  releases: readonly ReleaseRecord[],
  triage: readonly TriageRecord[],
): ReleaseRecord | undefined {
  const accepted = new Set(triage.filter((t) => t.action === 'accept' && t.who !== QPSWATCH).map((t) => t.releaseId));
  return releases
    .filter((r) => accepted.has(r.id) && r.versionKey > base.versionKey && r.versionKey < release.versionKey)
    .sort((a, b) => (a.versionKey < b.versionKey ? 1 : -1))[0];
}

/** Who qpswatch's own triage rows name (the first release of a series, the fixes): not a person's word. */
const QPSWATCH = 'qpswatch';

/** The drift email's chained series: per suspected test, the releases up to this one in version order. */
export function chainedSeries(
  suspicions: readonly DriftSuspicion[],
  release: ReleaseRecord,
  releases: readonly ReleaseRecord[],
): ChainedTest[] {
  const keyOf = new Map(releases.map((r) => [r.tag, r.versionKey]));
  return suspicions.map((s) => ({
    test: s.test,
    threads: s.threads,
    points: s.series
      .filter((e) => (keyOf.get(e.release) ?? '') <= release.versionKey && keyOf.has(e.release))
      .sort((a, b) => (keyOf.get(a.release)! < keyOf.get(b.release)! ? -1 : 1))
      .map((e) => ({ tag: e.release, relativeQps: e.relativeQps, low: e.low, high: e.high, steps: e.steps })),
  }));
}

/** A direct session against the base confirms a drift on each test it finds a regression. */
export function confirmedDrifts(verdicts: readonly Verdict[]): Verdict[] {
  return verdicts.filter((v) => v.kind === 'regression');
}

/**
 * reanchor_every: whether this release's check goes directly against the base instead of the last good. Every
 * `every` checked releases of the series: once `every - 1` releases were checked since the newest one anchored to
 * the base (a valid check with the base as baseline), the next goes to the base. 0 is off.
 */
export function reanchorDue(
  every: number,
  release: ReleaseRecord,
  base: ReleaseRecord,
  releases: readonly ReleaseRecord[],
  checks: readonly CheckRecord[],
): boolean {
  if (every <= 0 || release.versionKey <= base.versionKey) return false;
  const keyOf = new Map(releases.map((r) => [r.id, r.versionKey]));
  const below = (id: number): boolean => {
    const key = keyOf.get(id);
    return key !== undefined && key > base.versionKey && key < release.versionKey;
  };
  const valid = checks.filter((c) => !c.invalid && below(c.releaseId));
  const anchors = valid.filter((c) => c.baselineReleaseId === base.id).map((c) => keyOf.get(c.releaseId)!);
  const lastAnchor = anchors.reduce((a, b) => (b > a ? b : a), base.versionKey);
  const since = new Set(valid.filter((c) => keyOf.get(c.releaseId)! > lastAnchor).map((c) => c.releaseId));
  return since.size >= every - 1;
}

/** Reads the series' checks and the verdicts of those a chain is built from, for suspectedDrifts. */
export async function seriesChain(
  store: ReleaseStore & CheckStore,
  upstream: string,
  base: ReleaseRecord,
): Promise<Map<string, ChainStep[]>> {
  const [releases, checks] = await Promise.all([store.listReleases(upstream), store.listChecks(upstream)]);
  const used = chainChecks(checks, base.id);
  const verdicts = new Map<number, VerdictRecord[]>();
  for (const check of used) verdicts.set(check.sessionId, await store.verdictsOfSession(check.sessionId));
  return stepsByTest(used, verdicts, new Map(releases.map((r) => [r.id, r.tag])));
}
