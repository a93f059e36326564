import type { Verdict } from '../model/index.js';
import type { ReleaseRecord, VerdictRecord } from '../store/index.js';
import { checkRelease, type CheckDeps, type CheckRequest, type CheckResult } from './check-release.js';
import {
  acceptedReference,
  chainedSeries,
  confirmedDrifts,
  seriesBase,
  seriesChain,
  suspectedDrifts,
  type DriftSuspicion,
} from './drift.js';
import { builtInstall } from '../session/index.js';
import { buildsFromSource } from '../upstream/index.js';

export type CheckedResult = Extract<CheckResult, { kind: 'checked' }>;

/** A check, and what its chain against the base asked for: suspicions, the confirming session, the drifts it found. */
export interface ConfirmedCheck {
  result: CheckResult;
  /** The series' base the chain was built to; undefined when the series has none (or none was needed). */
  base?: ReleaseRecord;
  /** Tests whose chained estimate fell under the threshold in the normal check. */
  suspicions: DriftSuspicion[];
  /** The direct session against the base that was run to confirm them. */
  confirmation?: CheckedResult;
  /** Why suspicions were not confirmed, when they were not (--no-confirm, the base not built). */
  unconfirmed?: string;
  /** Tests that regressed in a direct session against the base (the confirmation, or a check against the base). */
  drifts: Verdict[];
}

export interface ConfirmOptions {
  /** Run the confirming session when drift is suspected (false: `check --no-confirm`, which only says so). */
  confirm: boolean;
  /** Told of the check and its suspicions before the confirming session starts (check prints them at once). */
  onSuspected?: (result: CheckedResult, suspicions: readonly DriftSuspicion[], base: ReleaseRecord) => void;
}

/**
 * A check, then the drift it may show (docs/verdicts.md, "Drift against the base"): after a normal check the
 * series' chain is built from the newest valid checks, and tests whose chained estimate is under the threshold are
 * confirmed at once by a paired session of the release directly against the base. A test that regresses there is
 * a confirmed drift: that session's regression opens its event and email like any check's. A check that was
 * against the base already needs no confirmation; its regressions are the drifts.
 */
export async function checkAndConfirm(
  request: CheckRequest,
  deps: CheckDeps,
  options: ConfirmOptions,
): Promise<ConfirmedCheck> {
  const result = await checkRelease(request, deps);
  if (result.kind === 'first') return { result, suspicions: [], drifts: [] };
  if (result.against !== 'last good')
    return { result, base: result.baseline, suspicions: [], drifts: confirmedDrifts(result.verdicts) };
  const onSuspected = options.onSuspected;
  const confirmed = await confirmSuspected(result.release, result.verdicts, request, deps, {
    confirm: options.confirm,
    ...(onSuspected !== undefined ? { onSuspected: (suspicions, base) => onSuspected(result, suspicions, base) } : {}),
  });
  return { result, ...confirmed };
}

/**
 * The confirmation a stored normal check still owes: its session is recorded, but the confirming session that was
 * to follow never finished (it failed, or the daemon was stopped between the two). The daemon's retry of the
 * release runs it then, from the stored verdicts; undefined when nothing is owed (no suspicion, or the release was
 * checked against the base since its normal check).
 */
export async function confirmOwed(
  release: ReleaseRecord,
  request: CheckRequest,
  deps: CheckDeps,
  beforeSession?: () => Promise<void>,
): Promise<Omit<ConfirmedCheck, 'result'> | undefined> {
  const { store } = deps;
  const upstream = deps.upstreams.find((u) => u.name === release.upstream);
  if (upstream === undefined) return undefined;
  const [releases, checks] = await Promise.all([store.listReleases(upstream.name), store.listChecks(upstream.name)]);
  const base = seriesBase(upstream, releases, checks);
  if (base === undefined) return undefined;
  const own = checks.filter((c) => c.releaseId === release.id && !c.invalid);
  const normal = own.filter((c) => c.baselineReleaseId !== base.id).sort((a, b) => b.sessionId - a.sessionId)[0];
  if (normal === undefined || own.some((c) => c.baselineReleaseId === base.id && c.sessionId > normal.sessionId))
    return undefined;
  const verdicts = (await store.verdictsOfSession(normal.sessionId)).filter(hasReach);
  const owed = await confirmSuspected(release, verdicts, request, deps, {
    confirm: true,
    ...(beforeSession !== undefined ? { beforeSession } : {}),
  });
  return owed.suspicions.length > 0 ? owed : undefined;
}

/** Verdicts stored before migration 6 have no interval: they cannot be chained, nor suspected. */
function hasReach(v: VerdictRecord): v is VerdictRecord & Verdict {
  return v.low !== null && v.high !== null && v.confidence !== null && v.detectableDrop !== null;
}

/** The suspicions of a normal check of `release` with these verdicts, and the confirming session they ask for. */
async function confirmSuspected(
  release: ReleaseRecord,
  verdicts: readonly Verdict[],
  request: CheckRequest,
  deps: CheckDeps,
  options: {
    confirm: boolean;
    onSuspected?: (suspicions: readonly DriftSuspicion[], base: ReleaseRecord) => void;
    /** Runs once the confirming session is certain to start (the daemon's retry waits for a quiet host here). */
    beforeSession?: () => Promise<void>;
  },
): Promise<Omit<ConfirmedCheck, 'result'>> {
  const { store, log } = deps;
  const upstream = deps.upstreams.find((u) => u.name === release.upstream)!;
  const [releases, checks, triage] = await Promise.all([
    store.listReleases(upstream.name),
    store.listChecks(upstream.name),
    store.listTriage(),
  ]);
  const base = seriesBase(upstream, releases, checks);
  if (base === undefined) return { suspicions: [], drifts: [] };
  const accepted = acceptedReference(release, base, releases, triage);
  const suspicions = suspectedDrifts(
    release.tag,
    base.tag,
    await seriesChain(store, upstream.name, base),
    verdicts,
    accepted?.tag,
  );
  if (suspicions.length === 0) return { base, suspicions, drifts: [] };
  for (const s of suspicions)
    log.warn(
      {
        tag: release.tag,
        base: base.tag,
        test: s.test,
        threads: s.threads,
        relativeQps: s.chained.relativeQps,
        steps: s.chained.steps,
      },
      `drift suspected: ${suspicionText(s, base)}`,
    );
  options.onSuspected?.(suspicions, base);
  const unconfirmed = !options.confirm
    ? 'not confirmed (--no-confirm)'
    : (await builtInstall(store, base, buildsFromSource(upstream) ? upstream.buildProfile : undefined)) === undefined
      ? `not confirmed: the base ${base.tag} is not built (qpswatch build ` +
        `${base.tag}, then qpswatch check ${release.tag} --against-base)`
      : undefined;
  if (unconfirmed !== undefined) {
    log.warn({ tag: release.tag, base: base.tag }, `drift ${unconfirmed}`);
    return { base, suspicions, unconfirmed, drifts: [] };
  }
  await options.beforeSession?.();
  log.info({ tag: release.tag, base: base.tag }, `confirming: ${release.tag} directly against the base ${base.tag}`);
  const confirmation = await checkRelease(
    { ...request, release, againstBase: true, chain: chainedSeries(suspicions, release, releases) },
    deps,
  );
  if (confirmation.kind !== 'checked')
    throw new Error(`a confirming check of ${release.tag} against the base ran no session`);
  return { base, suspicions, confirmation, drifts: confirmedDrifts(confirmation.verdicts) };
}

/** "update-index.t1 at 0.93 (0.90-0.96) of the base mariadb-10.11.1, through 3 checks; threshold 0.95" */
export function suspicionText(s: DriftSuspicion, base: Pick<ReleaseRecord, 'tag'>): string {
  const c = s.chained;
  const since = s.since !== undefined ? `, under the threshold since the accepted ${s.since}` : '';
  return (
    `${s.test}.t${s.threads} at ${c.relativeQps.toFixed(3)} ` +
    `(${c.low.toFixed(3)}-${c.high.toFixed(3)}) of the base ${base.tag}, ` +
    `through ${c.steps} checks${since}; threshold ${s.threshold}`
  );
}
