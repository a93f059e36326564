import type { Logger } from '../log/index.js';
import type {
  BisectionInput,
  BisectionRecord,
  BisectionStore,
  CheckStore,
  EventRecord,
  OutboxStore,
  ReleaseRecord,
} from '../store/index.js';
import { narrowSuite } from '../suite/index.js';
import type { Upstream } from '../upstream/index.js';
import { runBisection, type BisectRequest, type BisectRun } from './bisect.js';
import { bisectMessage } from './bisect-message.js';
import type { BuildSettings } from '../releases/index.js';
import type { CheckDeps, CheckRequest, CheckResult, CheckSettings } from '../checks/index.js';
import { deliverPending } from '../checks/index.js';

export interface EventBisectDeps {
  settings: Pick<CheckSettings, 'bisect' | 'alerts' | 'mail'>;
  store: CheckStore & BisectionStore & OutboxStore;
  log: Logger;
  signal: AbortSignal;
  upstreams: readonly Upstream[];
  /** Walks one bisection's range (runBisection with the session and build deps); a fake in unit tests. */
  runBisection: (request: BisectRequest, upstream: Upstream) => Promise<Pick<BisectRun, 'input'>>;
}

/** The hook's parts from a check's deps and the build settings: the real bisection runner. */
export function eventBisectDeps(
  deps: CheckDeps & { store: CheckDeps['store'] & BisectionStore },
  buildSettings: BuildSettings,
): EventBisectDeps {
  return {
    ...deps,
    runBisection: (request, upstream) => runBisection(request, { ...deps, buildSettings, upstream }),
  };
}

/**
 * bisect: true. A check that opened regression events (against the last good release, of a git upstream) is
 * followed at once by a bisection of its tag for the regressed tests, within bisect_max_builds and bisect_max_hours.
 * The result is stored linked to the first event it opened, with its one follow-up email, in one transaction. A
 * bisection that fails is stored as failed and logged: it never fails the check nor the daemon's cycle (only an
 * abort, SIGTERM, goes on up). Undefined when nothing was bisected.
 */
export async function bisectNewEvents(
  check: CheckResult,
  request: Pick<CheckRequest, 'suite' | 'budgetMinutes' | 'maxPairs'>,
  deps: EventBisectDeps,
): Promise<BisectionRecord | undefined> {
  if (!deps.settings.bisect.enabled || check.kind !== 'checked' || check.against !== 'last good') return undefined;
  if (check.plan.opened.length === 0) return undefined;
  const upstream = deps.upstreams.find((u) => u.name === check.release.upstream);
  const log = deps.log.child({ tag: check.release.tag, bisect: true });
  if (upstream?.kind !== 'git') {
    log.info({ kind: upstream?.kind }, 'bisect: true, but only a git upstream has commits to bisect: no bisection');
    return undefined;
  }
  try {
    const event = await openedEvent(check, deps.store);
    if (event === undefined) return undefined;
    const record = await bisectAndRecord(check, event, upstream, request, deps, log);
    await deliverPending({ mail: deps.settings.mail, store: deps.store, log, signal: deps.signal });
    return record;
  } catch (err) {
    if (deps.signal.aborted) throw err;
    log.error({ error: String(err) }, 'the automatic bisection could not be stored; the check stands');
    return undefined;
  }
}

/** The first event this check opened that has no bisection yet (a check recorded again does not bisect again). */
async function openedEvent(
  check: Extract<CheckResult, { kind: 'checked' }>,
  store: CheckStore & BisectionStore,
): Promise<EventRecord | undefined> {
  const events = (await store.listEvents({ upstream: check.release.upstream })).filter(
    (e) => e.sessionId === check.sessionId && e.kind === 'regression',
  );
  const done = new Set((await store.listBisections({ releaseId: check.release.id })).map((b) => b.eventId));
  return events.sort((a, b) => a.id - b.id).find((e) => !done.has(e.id));
}

async function bisectAndRecord(
  check: Extract<CheckResult, { kind: 'checked' }>,
  event: EventRecord,
  upstream: Upstream,
  request: Pick<CheckRequest, 'suite' | 'budgetMinutes' | 'maxPairs'>,
  deps: EventBisectDeps,
  log: Logger,
): Promise<BisectionRecord> {
  const tests = [...new Set(check.plan.opened.map((v) => `${v.test}.t${v.threads}`))];
  const { bisect } = deps.settings;
  const startedAt = new Date().toISOString();
  log.info({ tests, maxBuilds: bisect.maxBuilds, maxHours: bisect.maxHours }, 'bisect: true: bisecting the tag');
  let input: BisectionInput;
  try {
    const budgetMinutes = request.budgetMinutes ?? upstream.budgetMinutes;
    const run = await deps.runBisection(
      {
        release: check.release,
        good: check.baseline,
        tests,
        suite: narrowSuite(request.suite, tests),
        firstParent: true,
        // The events bisected here are the QPS lane's regressions.
        lane: 'qps',
        maxBuilds: bisect.maxBuilds,
        maxHours: bisect.maxHours,
        ...(budgetMinutes !== undefined ? { budgetMinutes } : {}),
        ...(request.maxPairs !== undefined ? { maxPairs: request.maxPairs } : {}),
      },
      upstream,
    );
    input = { ...run.input, eventId: event.id };
  } catch (err) {
    if (deps.signal.aborted) throw err;
    const error = oneLine(err);
    log.error({ error }, 'the automatic bisection failed; it is stored as failed and the check stands');
    input = failedInput(check.release, check.baseline, upstream, tests, event.id, startedAt, error);
  }
  const message = bisectMessage({
    alerts: deps.settings.alerts,
    upstream,
    release: check.release,
    good: check.baseline,
    bisection: input,
    eventId: event.id,
  });
  const record = await deps.store.recordBisection(input, message);
  log.info({ bisection: record.id, outcome: record.outcome, builds: record.builds }, 'bisection stored');
  return record;
}

function failedInput(
  release: ReleaseRecord,
  good: ReleaseRecord,
  upstream: Upstream,
  tests: string[],
  eventId: number,
  startedAt: string,
  error: string,
): BisectionInput {
  return {
    releaseId: release.id,
    goodReleaseId: good.id,
    buildProfile: upstream.buildProfile,
    tests,
    commitCount: 0,
    outcome: 'failed',
    candidates: [],
    steps: [],
    builds: 0,
    startedAt,
    endedAt: new Date().toISOString(),
    eventId,
    error,
  };
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
