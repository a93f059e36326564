import { planEvents, selectLastGood, type EventPlan, type GoodRelease } from '../analysis/index.js';
import { InputError } from '../errors.js';
import type { ComparisonView, Verdict } from '../model/index.js';
import type { CalibrationStore, CheckRecord, CheckStore, OutboxStore, ReleaseRecord, ReleaseStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import type { Upstream } from '../upstream/index.js';
import { runComparison, type CompareDeps, type CompareRequest } from './compare.js';
import { deliverPending } from './deliver.js';
import { alertMessages } from './alert-messages.js';
import type { CheckSettings } from './settings.js';
import { builtInstall } from './release-install.js';

export interface CheckRequest extends Pick<CompareRequest, 'design' | 'budgetMinutes' | 'maxPairs'> {
  release: ReleaseRecord;
  suite: Suite;
  rounds: number;
}

export interface CheckDeps extends CompareDeps {
  /** A session's settings plus who is emailed and how (checkSettings). */
  settings: CheckSettings;
  /** A session's roles plus the check with its events and messages, and this host's calibration. */
  store: CompareDeps['store'] & CheckStore & OutboxStore & CalibrationStore;
}

export type CheckResult =
  /** Nothing older in the series is good: the release becomes the series' first last good, without a session. */
  | { kind: 'first'; release: ReleaseRecord }
  | {
      kind: 'checked';
      release: ReleaseRecord;
      lastGood: GoodRelease;
      sessionId: number;
      view: ComparisonView;
      verdicts: Verdict[];
      check: CheckRecord;
      plan: EventPlan;
      messagesQueued: number;
    };

export class ReleaseNotBuiltError extends InputError {
  constructor(readonly tag: string) {
    super(`release ${JSON.stringify(tag)} is not built: run \`qpswatch build ${tag}\` first`);
  }
}

/**
 * One release against the last good release of its upstream: a session, the verdicts, the regression events it
 * opens and closes, and their emails, recorded in one transaction; then the outbox is sent. Regressions that
 * already have an open event go on without another email.
 */
export async function checkRelease(request: CheckRequest, deps: CheckDeps): Promise<CheckResult> {
  const { store, log } = deps;
  const release = request.release;
  const upstream = deps.upstreams.find((u) => u.name === release.upstream);
  if (upstream === undefined) throw new InputError(`release ${JSON.stringify(release.tag)} belongs to upstream ${JSON.stringify(release.upstream)}, which is no longer in the config`);
  if ((await builtInstall(store, release, upstream.kind === 'git' ? upstream.buildProfile : undefined)) === undefined) throw new ReleaseNotBuiltError(release.tag);
  const lastGood = await lastGoodBelow(store, release);
  if (lastGood === undefined) {
    await store.triage({ releaseId: release.id, action: 'accept', who: 'qpswatch', reason: 'the first release checked in its series: the starting last good' });
    log.info({ tag: release.tag, upstream: upstream.name }, 'nothing older in the series is good: this release is the first last good, accepted without a session');
    return { kind: 'first', release };
  }
  log.info({ tag: release.tag, lastGood: lastGood.release.tag }, `checking ${release.tag} against the last good release ${lastGood.release.tag}`);
  // The upstream's own budget wins over the config's and the suite's, unless the person running the check gave one.
  const budgetMinutes = request.budgetMinutes ?? upstream.budgetMinutes;
  const outcome = await runComparison(
    { baseline: lastGood.release.tag, candidate: release.tag, suite: request.suite, rounds: request.rounds, ...(request.design !== undefined ? { design: request.design } : {}), ...(budgetMinutes !== undefined ? { budgetMinutes } : {}), ...(request.maxPairs !== undefined ? { maxPairs: request.maxPairs } : {}) },
    deps,
  );
  const open = await store.listEvents({ upstream: upstream.name, state: 'open' });
  const plan = planEvents(outcome.verdicts, open);
  const messages = alertMessages({ alerts: deps.settings.alerts, upstream, release, lastGood: lastGood.release, sessionId: outcome.sessionId, view: outcome.view, fingerprintId: outcome.fingerprintId, plan });
  const check = await store.recordCheck({
    sessionId: outcome.sessionId,
    releaseId: release.id,
    baselineReleaseId: lastGood.release.id,
    outcome: outcome.verdicts.some((v) => v.kind === 'regression') ? 'regression' : 'ok',
    verdicts: outcome.verdicts,
    openEvents: plan.opened.map((v) => ({ test: v.test, threads: v.threads, relativeQps: v.relativeQps })),
    fixedEventIds: plan.fixed.map((e) => e.id),
    messages,
  });
  logPlan(deps, upstream, plan);
  await deliverPending({ mail: deps.settings.mail, store, log, signal: deps.signal });
  return { kind: 'checked', release, lastGood, sessionId: outcome.sessionId, view: outcome.view, verdicts: outcome.verdicts, check, plan, messagesQueued: messages.length };
}

/** The last good release older than this one, in its upstream. */
export async function lastGoodBelow(store: ReleaseStore & CheckStore, release: ReleaseRecord): Promise<GoodRelease | undefined> {
  const [releases, checks, triage] = await Promise.all([store.listReleases(release.upstream), store.listChecks(release.upstream), store.listTriage()]);
  return selectLastGood(releases, checks, triage, release);
}

function logPlan(deps: CompareDeps, upstream: Upstream, plan: EventPlan): void {
  for (const v of plan.opened) deps.log.warn({ upstream: upstream.name, test: v.test, threads: v.threads, relativeQps: v.relativeQps }, `regression: ${v.test}.t${v.threads} at ${v.relativeQps.toFixed(2)}`);
  for (const v of plan.continuing) deps.log.info({ test: v.test, threads: v.threads }, `${v.test}.t${v.threads} still regressed: its event stays open, no new email`);
  for (const e of plan.fixed) deps.log.info({ test: e.test, threads: e.threads, eventId: e.id }, `${e.test}.t${e.threads} recovered: event ${e.id} fixed`);
}
