import { planEvents, selectLastGood, type EventPlan, type GoodRelease } from '../analysis/index.js';
import { InputError } from '../errors.js';
import type { ComparisonView, InstructionsView, Verdict } from '../model/index.js';
import {
  EventConflictError,
  type CalibrationStore,
  type CheckRecord,
  type CheckStore,
  type OutboxStore,
  type ProfileStore,
  type ReleaseRecord,
  type ReleaseStore,
} from '../store/index.js';
import type { Suite } from '../suite/index.js';
import type { AlertProfile, ChainedTest } from '../notify/index.js';
import { buildsFromSource, type Upstream } from '../upstream/index.js';
import {
  runComparison,
  type CompareDeps,
  type CompareOutcome,
  type CompareRequest,
  builtInstall,
} from '../session/index.js';
import { deliverPending } from './deliver.js';
import { alertMessages } from './alert-messages.js';
import { checkProfiler, profileOpenedEvents, worstOpened, type EventProfileDeps } from './event-profile.js';
import type { CheckSettings } from './check-settings.js';
import { BaseNotBuiltError, NoSeriesBaseError, NotAfterBaseError, reanchorDue, seriesBase } from './drift.js';
import { instructionCheck } from './instruction-check.js';

export interface CheckRequest extends Pick<CompareRequest, 'design' | 'budgetMinutes' | 'maxPairs'> {
  release: ReleaseRecord;
  suite: Suite;
  rounds: number;
  /** Judge the release directly against its series' base (`check --against-base`, a drift confirmation). */
  againstBase?: boolean;
  /** A confirmation's chained series of the suspected tests, shown in its drift email. */
  chain?: readonly ChainedTest[];
}

/**
 * What a check's baseline is: the last good release (the normal check), the series' base because it was asked for
 * (--against-base, a confirmation), or the base because reanchor_every made this release's turn.
 */
export type CheckAgainst = 'last good' | 'base' | 'base (re-anchor)';

export interface CheckDeps extends CompareDeps {
  /** A session's settings plus who is emailed and how (checkSettings). */
  settings: CheckSettings;
  /** A session's roles plus the check with its events and messages, and this host's calibration. */
  store: CompareDeps['store'] & CheckStore & OutboxStore & CalibrationStore & ProfileStore;
  /** The session a check runs (runComparison); unit tests give a fake that stores its own samples. */
  compare?: (request: CompareRequest, deps: CompareDeps) => Promise<CompareOutcome>;
  /** Profiles the worst regression a check opens (default: runProfile under perf or gdb; a fake in tests). */
  takeProfile?: EventProfileDeps['takeProfile'];
  /**
   * Makes a release's build installed on this host before its session (the daemon: a fleet shares its store, not its
   * disks, so a release another host built is built here too). Without it, a build missing here is an error.
   */
  installHere?: (release: ReleaseRecord) => Promise<void>;
}

export type CheckResult =
  /** Nothing older in the series is good: the release becomes the series' first last good, without a session. */
  | { kind: 'first'; release: ReleaseRecord }
  | {
      kind: 'checked';
      release: ReleaseRecord;
      baseline: ReleaseRecord;
      against: CheckAgainst;
      sessionId: number;
      view: ComparisonView;
      verdicts: Verdict[];
      check: CheckRecord;
      plan: EventPlan;
      messagesQueued: number;
      /** The instructions lane: its verdicts, and against the series' base from stored figures. */
      instructions?: InstructionsView;
    };

export class ReleaseNotBuiltError extends InputError {
  constructor(readonly tag: string) {
    super(`release ${JSON.stringify(tag)} is not built: run \`qpswatch build ${tag}\` first`);
  }
}

/**
 * One release against the last good release of its upstream (or its series' base: --against-base, a drift
 * confirmation, reanchor_every): a session, the verdicts, the regression events it opens and closes, and their
 * emails, recorded in one transaction; then the outbox is sent. Regressions that already have an open event go on
 * without another email. A check against the base is stored like any other, with the base as its baseline: the
 * normal rule of last good applies to it, and the chain takes it as a re-anchor.
 */
export async function checkRelease(request: CheckRequest, deps: CheckDeps): Promise<CheckResult> {
  const { store, log } = deps;
  const release = request.release;
  const upstream = deps.upstreams.find((u) => u.name === release.upstream);
  if (upstream === undefined)
    throw new InputError(
      `release ${JSON.stringify(release.tag)} belongs to upstream ` +
        `${JSON.stringify(release.upstream)}, which is no longer in the config`,
    );
  if ((await builtInstall(store, release, buildProfileOf(upstream))) === undefined)
    throw new ReleaseNotBuiltError(release.tag);
  const target = await checkBaseline(request, upstream, deps);
  if (target === undefined) {
    await store.triage({
      releaseId: release.id,
      action: 'accept',
      who: 'qpswatch',
      reason: 'the first release checked in its series: the starting last good',
    });
    log.info(
      { tag: release.tag, upstream: upstream.name },
      'nothing older in the series is good: this release is the first last good, accepted without a session',
    );
    return { kind: 'first', release };
  }
  const { baseline, against } = target;
  await deps.installHere?.(baseline);
  await deps.installHere?.(release);
  log.info(
    { tag: release.tag, baseline: baseline.tag, against },
    `checking ${release.tag} against the ${against} release ${baseline.tag}`,
  );
  // The upstream's own budget wins over the config's and the suite's, unless the person running the check gave one.
  const budgetMinutes = request.budgetMinutes ?? upstream.budgetMinutes;
  const outcome = await (deps.compare ?? runComparison)(
    {
      baseline: baseline.tag,
      candidate: release.tag,
      suite: request.suite,
      rounds: request.rounds,
      ...(request.design !== undefined ? { design: request.design } : {}),
      ...(budgetMinutes !== undefined ? { budgetMinutes } : {}),
      ...(request.maxPairs !== undefined ? { maxPairs: request.maxPairs } : {}),
      instructions: true,
    },
    deps,
  );
  const { plan, messages, lane, check } = await planAndRecord(
    { request, upstream, release, baseline, against, outcome },
    deps,
  );
  logPlan(deps, upstream, plan, against);
  await deliverPending({ mail: deps.settings.mail, store, log, signal: deps.signal });
  return {
    kind: 'checked',
    release,
    baseline,
    against,
    sessionId: outcome.sessionId,
    view: outcome.view,
    verdicts: outcome.verdicts,
    check,
    plan,
    messagesQueued: messages.length + (lane?.messages.length ?? 0),
    ...(outcome.instructions !== undefined ? { instructions: lane?.view ?? outcome.instructions } : {}),
  };
}

/** What a check plans and records once its session has run. */
interface CheckContext {
  request: CheckRequest;
  upstream: Upstream;
  release: ReleaseRecord;
  baseline: ReleaseRecord;
  against: CheckAgainst;
  outcome: CompareOutcome;
}

/**
 * Plans the check's events on those open now, renders its emails and records it all in one transaction. Another host
 * of a fleet may record a check of the series between the read and the write (the window holds the profile): the
 * store then refuses the plan (EventConflictError) and stores nothing, and the check is planned again on the events
 * open then: three attempts in all. The profile is taken once, and kept while the plan's worst opened test is the
 * one it profiled.
 */
async function planAndRecord(ctx: CheckContext, deps: CheckDeps) {
  const { request, upstream, release, baseline, against, outcome } = ctx;
  const { store, log } = deps;
  // The profile is of the worst test the plan opens: taken once, kept while that is the same test.
  const worstLabel = (plan: EventPlan): string => {
    const worst = worstOpened(plan.opened);
    return worst === undefined ? '' : `${worst.test}.t${worst.threads}`;
  };
  let profiled: { worst: string; profile: AlertProfile | undefined } | undefined;
  for (let attempt = 1; ; attempt++) {
    const open = await store.listEvents({ upstream: upstream.name, state: 'open' });
    const plan = planEvents(outcome.verdicts, open);
    profiled ??= {
      worst: worstLabel(plan),
      profile: await profileOpenedEvents(
        {
          opened: plan.opened,
          suite: request.suite,
          baseline: baseline.tag,
          candidate: release.tag,
          sessionId: outcome.sessionId,
        },
        eventProfileDeps(deps),
      ),
    };
    const profile = profiled.worst === worstLabel(plan) ? profiled.profile : undefined;
    const messages = alertMessages({
      alerts: deps.settings.alerts,
      upstream,
      release,
      lastGood: baseline,
      sessionId: outcome.sessionId,
      view: outcome.view,
      fingerprintId: outcome.fingerprintId,
      plan,
      ...(against !== 'last good' ? { againstBase: true } : {}),
      ...(request.chain !== undefined ? { chain: request.chain } : {}),
      ...(profile !== undefined ? { profile } : {}),
    });
    const lane =
      outcome.instructions === undefined
        ? undefined
        : await instructionCheck(
            {
              upstream,
              release,
              baseline,
              againstBase: against !== 'last good',
              sessionId: outcome.sessionId,
              lane: outcome.instructions,
            },
            { store, verdicts: deps.settings.instructions.verdicts, alerts: deps.settings.alerts, log },
          );
    try {
      const check = await store.recordCheck({
        sessionId: outcome.sessionId,
        releaseId: release.id,
        baselineReleaseId: baseline.id,
        outcome: outcome.verdicts.some((v) => v.kind === 'regression') ? 'regression' : 'ok',
        verdicts: outcome.verdicts,
        openEvents: plan.opened.map((v) => ({ test: v.test, threads: v.threads, relativeQps: v.relativeQps })),
        eventKind: against === 'last good' ? 'regression' : 'drift',
        fixedEventIds: plan.fixed.map((e) => e.id),
        messages: [...messages, ...(lane?.messages ?? [])],
        ...(lane !== undefined ? { instructions: lane.input } : {}),
      });
      return { plan, messages, lane, check };
    } catch (err) {
      if (!(err instanceof EventConflictError) || attempt === 3) throw err;
      log.info(
        { tag: release.tag, attempt, error: err.message },
        'another check of the series changed its events meanwhile: this check is planned again on those open now',
      );
    }
  }
}

/**
 * The release a check is judged against: the series' base when asked for, or when reanchor_every makes it this
 * release's turn (and the base is built: a daemon never fails a check over it, it goes on against the last good);
 * else the last good release. Undefined for the first release of a series, which becomes the first last good.
 */
async function checkBaseline(
  request: CheckRequest,
  upstream: Upstream,
  deps: CheckDeps,
): Promise<{ baseline: ReleaseRecord; against: CheckAgainst } | undefined> {
  const { store } = deps;
  const release = request.release;
  // One read of the series, for both the base and the last good.
  const [releases, checks, triage] = await Promise.all([
    store.listReleases(upstream.name),
    store.listChecks(upstream.name),
    store.listTriage(),
  ]);
  const base = seriesBase(upstream, releases, checks);
  if (request.againstBase === true) {
    if (base === undefined) throw new NoSeriesBaseError(upstream);
    if (release.versionKey <= base.versionKey) throw new NotAfterBaseError(release.tag, upstream.name, base.tag);
    if ((await builtInstall(store, base, buildProfileOf(upstream))) === undefined)
      throw new BaseNotBuiltError(upstream.name, base.tag);
    return { baseline: base, against: 'base' };
  }
  const lastGood = selectLastGood(releases, checks, triage, release);
  if (lastGood === undefined) return undefined;
  if (
    base === undefined ||
    base.id === lastGood.release.id ||
    !reanchorDue(deps.settings.reanchorEvery, release, base, releases, checks)
  )
    return { baseline: lastGood.release, against: 'last good' };
  if ((await builtInstall(store, base, buildProfileOf(upstream))) === undefined) {
    deps.log.warn(
      { tag: release.tag, base: base.tag },
      `reanchor_every: ${release.tag} is due for a check against the base ` +
        `${base.tag}, which is not built: checked against the last good instead ` +
        `(qpswatch build ${base.tag})`,
    );
    return { baseline: lastGood.release, against: 'last good' };
  }
  return { baseline: base, against: 'base (re-anchor)' };
}

/** The profiler of a check's regressions: the injected one, or perf/gdb on this check's servers. */
function eventProfileDeps(deps: CheckDeps): EventProfileDeps {
  const { settings, store, log, upstreams, signal } = deps;
  return { settings, log, takeProfile: deps.takeProfile ?? checkProfiler({ settings, store, log, upstreams, signal }) };
}

function buildProfileOf(upstream: Upstream): string | undefined {
  return buildsFromSource(upstream) ? upstream.buildProfile : undefined;
}

/** The last good release older than this one, in its upstream. */
export async function lastGoodBelow(
  store: ReleaseStore & CheckStore,
  release: ReleaseRecord,
): Promise<GoodRelease | undefined> {
  const [releases, checks, triage] = await Promise.all([
    store.listReleases(release.upstream),
    store.listChecks(release.upstream),
    store.listTriage(),
  ]);
  return selectLastGood(releases, checks, triage, release);
}

function logPlan(deps: CompareDeps, upstream: Upstream, plan: EventPlan, against: CheckAgainst): void {
  // Against the base, a regression is the series' drift confirmed by a direct session (docs/verdicts.md).
  const what = against === 'last good' ? 'regression' : 'drift confirmed against the base';
  for (const v of plan.opened)
    deps.log.warn(
      { upstream: upstream.name, test: v.test, threads: v.threads, relativeQps: v.relativeQps },
      `${what}: ${v.test}.t${v.threads} at ${v.relativeQps.toFixed(2)}`,
    );
  for (const v of plan.continuing)
    deps.log.info(
      { test: v.test, threads: v.threads },
      `${v.test}.t${v.threads} still regressed: its event stays open, no new email`,
    );
  for (const e of plan.fixed)
    deps.log.info(
      { test: e.test, threads: e.threads, eventId: e.id },
      `${e.test}.t${e.threads} recovered: event ${e.id} fixed`,
    );
}
