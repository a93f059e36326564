import type { CyclePhase, QueueState } from '../model/index.js';
import {
  QueueClaimError,
  QueueStateError,
  type BisectionStore,
  type DaemonStateStore,
  type HostStore,
  type QueueMove,
  type QueueRecord,
  type QueueStep,
  type QueueStore,
  type QuietHostStore,
  type ReleaseRecord,
  type SessionStore,
} from '../store/index.js';
import type { Suite } from '../suite/index.js';
import type { Upstream } from '../upstream/index.js';
import {
  failureMessage,
  lastGoodBelow,
  type CheckDeps,
  checkAndConfirm,
  confirmOwed,
  deliverPending,
} from '../checks/index.js';
import { bisectNewEvents, eventBisectDeps } from '../bisect/index.js';
import { discoverAll, type DiscoveryOutcome, obtainRelease } from '../releases/index.js';
import { claimUntil, renewClaims, type FleetMember } from './fleet.js';
import { pruneAfterCheck } from './prune-builds.js';
import { alreadyChecked, enqueueConfigured, requeueReruns } from './queue-sync.js';
import { waitForQuietHost, type QuietHostWait, type QuietHostWaitDeps } from './quiet-host-wait.js';
import { errorLinesOf, isDue, nextAttemptAt } from './retry-policy.js';
import type { CycleSettings } from './cycle-settings.js';

export interface PhaseDetail {
  /** The release being worked on. */
  tag?: string;
  /** Why the cycle waits (the quiet-host reasons). */
  reason?: string;
  waitedSeconds?: number;
}

export interface CycleDeps extends CheckDeps {
  /** A check's settings plus builds, pruning and the quiet-host wait (cycleSettings). */
  settings: CycleSettings;
  /** A check's roles plus the queue, the daemon's state and the quiet-host records. */
  store: CheckDeps['store'] & QueueStore & DaemonStateStore & QuietHostStore & BisectionStore & HostStore;
  /** What this daemon is in the fleet: the slot whose queue it works, and its name on the claims it takes. */
  fleet: FleetMember;
  suite: Suite;
  rounds: number;
  /** Told of each phase as it starts, so status and metrics show what the daemon does. */
  onPhase?: (phase: CyclePhase, detail?: PhaseDetail) => void | Promise<void>;
  /** For tests: how the host is looked at before a session. */
  observeHost?: QuietHostWaitDeps['observe'];
  /** How a queued release is made ready (obtainRelease: built, or a tarball unpacked); unit tests give a fake. */
  build?: typeof obtainRelease;
}

export interface CycleOutcome {
  /** Releases added to the queue by this cycle. */
  enqueued: number;
  built: number;
  buildFailures: number;
  checked: number;
  /** Releases whose build or check failed on the way (their queue rows say why). */
  failed: number;
}

/**
 * One cycle of the daemon: discover every upstream, queue what is new, then take each queued release in version
 * order through build -> quiet-host wait -> check -> done, and send the outbox. An error of one release is logged
 * and kept in its queue row and the cycle goes on with the next; an abort (SIGTERM) stops everything, leaving the
 * release's row one step back so the next start redoes it.
 */
export async function runCycle(deps: CycleDeps): Promise<CycleOutcome> {
  const { store, log, signal } = deps;
  const phase = async (p: CyclePhase, detail?: PhaseDetail) => deps.onPhase?.(p, detail);
  await phase('discovering');
  const discovered = await discoverAll(deps.upstreams, store, log, signal);
  await store.setDaemonState(deps.fleet.hostName, { lastPollAt: new Date().toISOString() });
  const selected = selectedNow(discovered);
  const outcome: CycleOutcome = {
    enqueued: await enqueueConfigured(deps, selected),
    built: 0,
    buildFailures: 0,
    checked: 0,
    failed: 0,
  };
  await requeueReruns(store, deps.fleet.slot, log);
  await takeOverLapsed(deps);
  for (const row of await store.listQueue(deps.fleet.slot)) {
    signal.throwIfAborted();
    const upstream = deps.upstreams.find((u) => u.name === row.upstream);
    if (
      upstream === undefined ||
      (row.state !== 'discovered' && row.state !== 'built') ||
      !isSelected(selected, row.upstream, row.tag)
    )
      continue;
    if (!isDue(row, new Date())) {
      log.info(
        { tag: row.tag, upstream: row.upstream, failures: row.failures, nextAttemptAt: row.nextAttemptAt },
        'waiting for its next attempt',
      );
      continue;
    }
    const release = (await store.getRelease(row.releaseId))!;
    await processRelease(row, release, upstream, deps, outcome, phase);
  }
  await phase('notifying');
  await deliverPending({ mail: deps.settings.mail, store, log, signal }).catch((err: unknown) =>
    log.error({ error: String(err) }, 'the outbox could not be sent; it is tried again next cycle'),
  );
  await phase('idle');
  return outcome;
}

/**
 * Per upstream, the tags its filters select now; an upstream whose discovery failed is left out (all its rows count).
 */
function selectedNow(outcomes: readonly DiscoveryOutcome[]): Map<string, Set<string>> {
  return new Map(outcomes.filter((o) => o.error === undefined).map((o) => [o.upstream, new Set(o.selectedTags)]));
}

function isSelected(selected: ReadonlyMap<string, ReadonlySet<string>>, upstream: string, tag: string): boolean {
  return selected.get(upstream)?.has(tag) ?? true;
}

type PhaseFn = (p: CyclePhase, detail?: PhaseDetail) => Promise<void>;

async function processRelease(
  row: QueueRecord,
  release: ReleaseRecord,
  upstream: Upstream,
  deps: CycleDeps,
  outcome: CycleOutcome,
  phase: PhaseFn,
): Promise<void> {
  const log = deps.log.child({ tag: release.tag, upstream: upstream.name });
  let step: QueueStep = row.state === 'discovered' ? 'build' : 'session';
  const stopRenewing = renewClaims(deps.fleet, deps.store, row, log);
  try {
    if (step === 'build') {
      const built = await buildStep(row, release, upstream, deps, outcome, phase);
      if (built !== 'built') return;
      step = 'session';
    }
    await checkStep(release, deps, outcome, phase);
  } catch (err) {
    const current = (await deps.store.getQueued(deps.fleet.slot, release.id))?.state;
    if (deps.signal.aborted) {
      // Stopped on purpose: one step back, as a restart's recovery would do, so the next start redoes it.
      const back = current === 'building' ? 'discovered' : current === 'benchmarking' ? 'built' : undefined;
      if (back !== undefined) await deps.store.moveQueued(queueMove(deps, release, current!, back));
      throw err;
    }
    if (err instanceof QueueClaimError || err instanceof QueueStateError) {
      // Another daemon of the slot took the row over (this one's claim lapsed) or moved it: theirs now.
      log.warn({ error: oneLine(err), step }, 'the release was taken over by another daemon; this one leaves it');
      return;
    }
    const error = oneLine(err);
    log.error({ error, step }, 'release failed; the cycle goes on with the next one');
    outcome.failed += 1;
    // A build that could not start or was cut short (network, disk, a server that crashed, a busy host) may work
    // next time: it is tried again after the backoff.
    if (current !== undefined && current !== 'failed' && current !== 'done')
      await recordFailure(release, upstream, step, { error, errorLines: errorLinesOf(err), repeats: false }, deps, log);
  } finally {
    stopRenewing();
  }
}

/** A move of this daemon's: of its slot's row, refused if another daemon holds the row (fleet.ts). */
function queueMove(
  deps: Pick<CycleDeps, 'fleet'>,
  release: ReleaseRecord,
  from: QueueState,
  to: QueueState,
): QueueMove {
  return { slot: deps.fleet.slot, releaseId: release.id, from, to, claimant: deps.fleet.hostName };
}

/** Takes a row of the slot to work on; false when another daemon took it first (it is theirs, and is left). */
async function claim(deps: CycleDeps, release: ReleaseRecord, to: 'building' | 'benchmarking'): Promise<boolean> {
  const { slot, hostName } = deps.fleet;
  const taken = await deps.store.claimQueued({
    slot,
    releaseId: release.id,
    to,
    claimant: hostName,
    until: claimUntil(deps.fleet),
  });
  if (taken === undefined)
    deps.log.info({ tag: release.tag, slot }, 'another daemon of this slot took the release first: left to it');
  return taken !== undefined;
}

/**
 * Rows of the slot whose daemon's claim lapsed (it died, or lost the store for longer than claim_seconds) go back
 * one step, so this cycle takes them over.
 */
async function takeOverLapsed(deps: CycleDeps): Promise<void> {
  const { rebuilt, rebenchmarked } = await deps.store.recoverQueue({
    slot: deps.fleet.slot,
    claimant: deps.fleet.hostName,
    now: new Date().toISOString(),
  });
  for (const row of [...rebuilt, ...rebenchmarked])
    deps.log.warn(
      { tag: row.tag, upstream: row.upstream, slot: row.slot },
      'the claim on this release lapsed (its daemon stopped): this daemon takes it over',
    );
}

interface Failure {
  error: string;
  errorLines: readonly string[];
  /** fails the same way every time (a compiler error): no retry */
  repeats: boolean;
}

/**
 * A failed attempt of the release's build or session: back to the step's start until the backoff has passed, or,
 * after the last attempt (or a failure that repeats), failed with one "could not build/measure" email queued in the
 * same transaction. The email's event key makes it unique: it is never queued twice.
 */
async function recordFailure(
  release: ReleaseRecord,
  upstream: Upstream,
  step: QueueStep,
  failure: Failure,
  deps: CycleDeps,
  log: CycleDeps['log'],
): Promise<void> {
  const row = await deps.store.getQueued(deps.fleet.slot, release.id);
  if (row === undefined) return;
  const failures = (row.failedStep === step ? row.failures : 0) + 1;
  const retryAt = failure.repeats ? undefined : nextAttemptAt(failures, deps.settings.retry, new Date());
  const base = {
    slot: deps.fleet.slot,
    claimant: deps.fleet.hostName,
    releaseId: release.id,
    step,
    error: failure.error,
    errorLines: failure.errorLines,
  };
  if (retryAt !== undefined) {
    await deps.store.failQueued({ ...base, retryAt });
    log.warn(
      { step, attempt: failures, attempts: deps.settings.retry.attempts, nextAttemptAt: retryAt },
      `${step} failed: it is tried again after the backoff`,
    );
    return;
  }
  const kind = step === 'build' ? 'could-not-build' : 'could-not-measure';
  const message = failureMessage({
    alerts: deps.settings.alerts,
    upstream,
    release,
    kind,
    attempts: failures,
    queueAttempts: row.attempts,
    repeats: failure.repeats,
    errorLines: failure.errorLines,
  });
  await deps.store.failQueued({ ...base, ...(message !== undefined ? { message } : {}) });
  log.error(
    { step, attempts: failures, email: message !== undefined },
    `${step} failed for good: the release stays failed${message !== undefined ? ' and one email is queued' : ''}`,
  );
}

async function buildStep(
  row: QueueRecord,
  release: ReleaseRecord,
  upstream: Upstream,
  deps: CycleDeps,
  outcome: CycleOutcome,
  phase: PhaseFn,
): Promise<'built' | 'failed' | 'taken'> {
  // The row moves first, so the phase's queue counts already show it.
  if (!(await claim(deps, release, 'building'))) return 'taken';
  await phase('building', { tag: release.tag });
  // A row back in discovered after an attempt was cut off (SIGTERM, a crash): a build stopped half-way may be
  // recorded as failed, which is not the release's fault, so its key is tried again. Real failures stay failed.
  // A tarball upstream's release is downloaded, verified and unpacked instead; a failed download throws, and is
  // tried again after the backoff like any build that could not run.
  const built = await (deps.build ?? obtainRelease)(release, upstream, deps, row.attempts > 0);
  deps.signal.throwIfAborted();
  if (built.status === 'built' || built.status === 'already-built') {
    if (built.status === 'built') outcome.built += 1;
    await deps.store.moveQueued(queueMove(deps, release, 'building', 'built'));
    return 'built';
  }
  // The compiler or cmake said no: the same key fails the same way every time, so there is no retry, only the
  // email at once (qpswatch build --retry TAG when something outside the source changed).
  outcome.buildFailures += 1;
  // The first picked line is the cause (the compiler's or cmake's error); make's "*** Error 2" comes last.
  const error = `build failed: ${built.failureLines[0] ?? 'see the build log'} (${built.logFile})`;
  const errorLines = [...built.failureLines, `(the build log: ${built.logFile})`];
  await recordFailure(
    release,
    upstream,
    'build',
    { error, errorLines, repeats: true },
    deps,
    deps.log.child({ tag: release.tag, upstream: upstream.name }),
  );
  return 'failed';
}

async function checkStep(
  release: ReleaseRecord,
  deps: CycleDeps,
  outcome: CycleOutcome,
  phase: PhaseFn,
): Promise<void> {
  const { store } = deps;
  if (await alreadyChecked(store, deps.fleet, release)) {
    await owedConfirmation(release, deps, phase);
    await store.moveQueued(queueMove(deps, release, 'built', 'done'));
    return;
  }
  // The first release of a series runs no session (it becomes the last good), so there is nothing to wait for.
  const quiet = (await lastGoodBelow(store, release)) === undefined ? undefined : await quietHost(release, deps, phase);
  if (!(await claim(deps, release, 'benchmarking'))) return;
  await phase('benchmarking', { tag: release.tag });
  const before = (await store.listSessions({ limit: 1 }))[0]?.id ?? 0;
  try {
    // A drift the chain suspects is confirmed in the same step, right after: the host is quiet and both servers built.
    const { result } = await checkAndConfirm(
      { release, suite: deps.suite, rounds: deps.rounds },
      withInstallHere(deps),
      {
        confirm: true,
      },
    );
    if (result.kind === 'checked') outcome.checked += 1;
    await bisectNewEvents(result, { suite: deps.suite }, eventBisectDeps(deps, deps.settings));
  } finally {
    if (quiet !== undefined) await recordQuiet(store, release, before, quiet);
  }
  await store.moveQueued(queueMove(deps, release, 'benchmarking', 'done'));
  await pruneAfterCheck(
    release,
    deps.store,
    deps.upstreams,
    deps.settings.keepBuilds,
    deps.settings.stateDir,
    deps.log,
  );
}

/**
 * A fleet shares its store, not its disks: a release the store says is built may have been built by another host (or
 * pruned here). Before a session runs it, it is built (or unpacked) on this host; a build that fails here is an error
 * of the session, retried after the backoff like any other.
 */
function withInstallHere(deps: CycleDeps): CycleDeps {
  if (deps.installHere !== undefined) return deps;
  const installHere = async (release: ReleaseRecord): Promise<void> => {
    const upstream = deps.upstreams.find((u) => u.name === release.upstream);
    if (upstream === undefined) return;
    const built = await (deps.build ?? obtainRelease)(release, upstream, deps);
    if (built.status === 'failed' || built.status === 'failed-before')
      throw new Error(
        `${release.tag} is not installed on this host and its build here failed: ` +
          `${built.failureLines[0] ?? 'see the build log'} (${built.logFile})`,
      );
  };
  return { ...deps, installHere };
}

/**
 * A checked release back in the queue (its confirming session failed, or the daemon stopped between the two): the
 * confirmation its stored check still owes runs now, after a quiet-host wait; else there is nothing to benchmark.
 */
async function owedConfirmation(release: ReleaseRecord, deps: CycleDeps, phase: PhaseFn): Promise<void> {
  const { store } = deps;
  let quiet: QuietHostWait | undefined;
  const before = (await store.listSessions({ limit: 1 }))[0]?.id ?? 0;
  try {
    const request = { release, suite: deps.suite, rounds: deps.rounds };
    const owed = await confirmOwed(release, request, withInstallHere(deps), async () => {
      quiet = await quietHost(release, deps, phase);
      if (!(await claim(deps, release, 'benchmarking'))) throw new QueueStateError(release.id, 'built', 'benchmarking');
      await phase('benchmarking', { tag: release.tag });
    });
    if (owed === undefined)
      deps.log.info({ tag: release.tag }, 'already checked (or the first of its series): nothing to benchmark');
  } finally {
    if (quiet !== undefined) await recordQuiet(store, release, before, quiet);
  }
}

async function quietHost(release: ReleaseRecord, deps: CycleDeps, phase: PhaseFn): Promise<QuietHostWait> {
  await phase('waiting_for_quiet_host', { tag: release.tag });
  return waitForQuietHost(deps.settings.quietHost, {
    log: deps.log.child({ tag: release.tag }),
    signal: deps.signal,
    onBusy: (reasons, waitedSeconds) =>
      phase('waiting_for_quiet_host', { tag: release.tag, reason: reasons.join('; '), waitedSeconds }),
    ...(deps.observeHost !== undefined ? { observe: deps.observeHost } : {}),
  });
}

/** The sessions this check started (one, or none when it failed before the session) get what the host check saw. */
async function recordQuiet(
  store: SessionStore & QuietHostStore,
  release: ReleaseRecord,
  afterId: number,
  quiet: QuietHostWait,
): Promise<void> {
  const sessions = (await store.listSessions({ limit: 10 })).filter(
    (s) => s.id > afterId && s.candidate.name === release.tag,
  );
  for (const s of sessions) {
    await store.recordQuietHost({
      sessionId: s.id,
      observation: quiet.verdict.observation,
      quiet: quiet.verdict.quiet,
      reasons: quiet.verdict.reasons,
      waitedSeconds: quiet.waitedSeconds,
    });
  }
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
