import { readFileSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareSession,
  judgePairedSession,
  judgeSession,
  lookReach,
  type VerdictSettings,
} from '../analysis/index.js';
import { InputError } from '../errors.js';
import { processStartTicks } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import {
  sampleRoles,
  testLabel,
  type ComparisonView,
  type InstructionsView,
  type MemorySettingName,
  type Verdict,
  type SampleRole,
  type SessionDesignName,
  type WorkProgress,
} from '../model/index.js';
import {
  findDataDevice,
  fingerprintId,
  parseMeminfo,
  holdIdleStates,
  hostFingerprint,
  inventoryHostFacts,
  noIdleStateHold,
  type HostFingerprint,
  type IdleStateHold,
} from '../sampling/index.js';
import { cleanUpKilledSessions, profilePoolBytes, SERVER_OVERHEAD_BYTES, type ServerNetwork } from '../server/index.js';
import type {
  CalibrationStore,
  HostStore,
  InstructionLaneInput,
  InstructionStore,
  SessionSideStore,
  ReleaseStore,
  SampleRecord,
  SampleStore,
  SessionStore,
} from '../store/index.js';
import { findSysbench, type Suite } from '../suite/index.js';
import { prepareStateFolders, TargetInstance } from './target-instance.js';
import { loadTarget, runRound, type RoundContext } from './round.js';
import type { CompareSettings } from './settings.js';
import { roundOrder } from './round-order.js';
import { runPairedSession, type IdleServerMode, type PairedOutcome, type PairedStop } from './paired-session.js';
import { checkPairedMemory } from './paired-memory.js';
import { realSessionParts } from './session-parts.js';
import { sideDifferences } from './side-differences.js';
import { LoadedDatadirCache } from './datadir-cache.js';
import { announceSweeps, preflight, RESTART_WARMUP_SECONDS, type SweepPlan } from './preflight.js';
import { sessionProgress } from './session-progress.js';
import { resolveTarget, type PreparedTarget } from './target.js';
import { checkMemorySetting, withMemorySetting } from './memory-setting.js';
import type { Upstream } from '../upstream/index.js';
import { laneAnnouncement, planInstructionLane, runInstructionLane, type LanePlan } from './instruction-lane.js';
import { sessionLaneView } from './lane-view.js';

export interface CompareRequest {
  baseline: string;
  candidate: string;
  suite: Suite;
  /** Whole-run design: rounds of both targets. */
  rounds: number;
  /** Default: the config's design. */
  design?: SessionDesignName;
  /** Paired design: minutes of pairs; default the config's budget_minutes, else the suite's. */
  budgetMinutes?: number;
  /** Paired design: the most pairs per test; default the config's max_pairs. */
  maxPairs?: number;
  /** Paired design: false measures every test in every sweep, deciding nothing early (calibration, benchmark pools). */
  sequential?: boolean;
  /** Paired design: seconds of runs per pair of server instances; default the config's instance_seconds. */
  instanceSeconds?: number;
  /** Run the suite io-bound or cached (memory-setting.ts); undefined: the server profiles as they are. */
  memory?: MemorySettingName;
  /**
   * Why the session runs, when it is not a comparison of its own: a bisection's step measures a commit and only the
   * tests that regressed, so its samples must not count in the releases' history and metrics.
   */
  purpose?: 'bisect';
  /**
   * Count instructions per query of the 1-thread tests after the pairs (the instructions lane, instruction_counter):
   * compare and check ask for it; calibrations, bisection steps and benchmarks' pools do not.
   */
  instructions?: boolean;
  /**
   * A bisection's step on instructions: no pairs or rounds, only the instructions lane on these sides (the
   * candidate: the good end's figures are stored), `repeats` counted runs each. Needs `instructions` and a counter.
   */
  laneOnly?: { sides: readonly SampleRole[]; repeats: number };
}

/** A lane-only session whose instructions lane cannot run (no counter, no 1-thread test): nothing was measured. */
export class InstructionLaneUnavailableError extends InputError {
  constructor(readonly reason: string) {
    super(`the instructions lane cannot run: ${reason}`);
  }
}

/** What a session was asked to do, kept with it (sessions.settings) so it can be judged again the same way. */
export interface SessionPlan {
  design: SessionDesignName;
  budgetMinutes: number;
  maxPairs: number;
  /** The sweeps the budget pays for with every test open (the progress line's "sweep 9/17"): at most maxPairs. */
  plannedSweeps: number;
  idleServer: IdleServerMode;
  idleStatesHeld: boolean;
  /** Why the idle states were not held, when they were not. */
  idleHoldReason: string;
  verdicts: VerdictSettings;
}

export interface CompareDeps {
  /** What a session reads of the config, built once by the CLI (compareSettings). */
  settings: CompareSettings;
  /**
   * Releases for targets named by tag, the host, the session and its samples; this host's calibration for the
   * pre-flight line.
   */
  store: ReleaseStore & HostStore & SessionStore & SampleStore & CalibrationStore & InstructionStore & SessionSideStore;
  log: Logger;
  /** Built releases of these upstreams can be named as targets by their tag. */
  upstreams: readonly Upstream[];
  /** Aborted by SIGINT/SIGTERM: the running sysbench and mysqld are stopped and the session is left interrupted. */
  signal: AbortSignal;
  /** Told how far the session is as it runs (the daemon's status and metrics). */
  onWorkProgress?: (work: WorkProgress) => void;
}

export interface CompareOutcome {
  sessionId: number;
  view: ComparisonView;
  verdicts: Verdict[];
  /** The host's fingerprint id: results of other ids are never compared with these. */
  fingerprintId: string;
  plan: SessionPlan;
  /** Paired design: how the measuring ended. */
  paired?: PairedOutcome;
  /** The instructions lane: how it ended and its verdicts, when the request asked for it. */
  instructions?: InstructionsView;
}

/**
 * One comparison session. Paired design (the default): both targets are loaded, both servers run side by side and
 * every test is measured in alternating pairs until it is decided or the budget is spent. Whole-run design: both
 * targets are loaded once, then run in `rounds` rounds in alternating order, each round on a fresh copy of the
 * loaded datadir. Every sample is stored as it is measured; only a session that ends `done` is read back.
 */
/**
 * Each memory setting of a compare that runs several, checked before the first session starts: a setting that
 * cannot hold the data is refused at once, not after the sessions before it (hours on a large suite).
 */
export async function checkMemorySettings(
  request: CompareRequest,
  memories: readonly MemorySettingName[],
  deps: Pick<CompareDeps, 'settings' | 'store' | 'log' | 'upstreams'>,
): Promise<void> {
  const { settings, store, log } = deps;
  const sources = {
    stateDir: settings.stateDir,
    targets: settings.targets,
    serverProfilesDir: settings.serverProfilesDir,
    cacheDir: settings.cacheDir,
    upstreams: deps.upstreams,
    store,
    log,
  };
  const sides = {
    baseline: await resolveTarget(request.baseline, sources),
    candidate: await resolveTarget(request.candidate, sources),
  };
  // The work folder may not exist before the first session; it lives in state_dir, on the same filesystem.
  for (const memory of memories)
    checkMemoryFacts(
      { ...request, memory },
      settings,
      underMemorySetting(sides, memory, poolOf(request, settings)),
      settings.stateDir,
    );
}

export async function runComparison(asked: CompareRequest, deps: CompareDeps): Promise<CompareOutcome> {
  const { settings, store, log } = deps;
  // A suite made for a memory setting (an IO-bound suite) runs under it unless the request names one.
  const memory = asked.memory ?? asked.suite.memory;
  const request = memory !== undefined ? { ...asked, memory } : asked;
  // Everything a person can get wrong is checked before a session exists or a server starts; settings that can
  // never reach a verdict first, since that check is arithmetic.
  const reach = request.laneOnly === undefined ? checkSessionReach(request, settings) : undefined;
  // A session of a qpswatch killed before (SIGKILL) may have left servers, datadirs and a password file: gone first.
  await cleanUpKilledSessions({ stateDir: settings.stateDir, serverUser: settings.serverUser ?? '' }, store, log);
  const sources = {
    stateDir: settings.stateDir,
    targets: settings.targets,
    serverProfilesDir: settings.serverProfilesDir,
    cacheDir: settings.cacheDir,
    upstreams: deps.upstreams,
    store,
    log,
  };
  const targets = underMemorySetting(
    {
      baseline: await resolveTarget(request.baseline, sources),
      candidate: await resolveTarget(request.candidate, sources),
    },
    request.memory,
    poolOf(request, settings),
  );
  findSysbench();
  const workDir = join(settings.stateDir, 'work');
  // Private to qpswatch and the server user; a server_user that cannot be used stops here, before any session exists.
  await prepareStateFolders(settings.stateDir, settings.serverUser);
  if (request.memory !== undefined) checkMemoryFacts(request, settings, targets, workDir);
  const hold = settings.holdIdleStates ? holdIdleStates(settings.idleHoldSetting) : noIdleStateHold();
  try {
    if (!hold.held && settings.holdIdleStates) log.warn({ reason: hold.reason }, idleHoldWarning(hold));
    return await runHeldSession(request, deps, targets, workDir, hold, reach);
  } finally {
    hold.release();
  }
}

/** A suite's levels as a session stores them: the file's thread count, what it came to here, the load and tests. */
export function storedLevels(
  suite: Suite,
): { threads: number; threadsSpec: number | string; tables: number; tableSize: number; tests: string[] }[] {
  return suite.levels.map((l) => ({
    threads: l.threads,
    threadsSpec: l.threadsSpec,
    tables: l.load.tables,
    tableSize: l.load.tableSize,
    tests: [...l.tests],
  }));
}

async function runHeldSession(
  request: CompareRequest,
  deps: CompareDeps,
  targets: Record<SampleRole, PreparedTarget>,
  workDir: string,
  hold: IdleStateHold,
  reach: SweepPlan | undefined,
): Promise<CompareOutcome> {
  const { settings, store, log } = deps;
  const plan = sessionPlan(request, settings, hold, request.sequential !== false ? reach : undefined);
  if (reach !== undefined && request.sequential !== false)
    await announceSweeps(reach, { stateDir: settings.stateDir, alpha: settings.verdicts.alpha, store, log });
  const fingerprint = await hostFingerprint(workDir, {
    idleStatesHeld: hold.held,
    log,
    testMark: settings.fingerprintTestMark,
  });
  const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fingerprint), fingerprint });
  const lane = await instructionLanePlan(request, deps);
  if (request.laneOnly !== undefined && lane?.counter === undefined)
    throw new InstructionLaneUnavailableError(lane?.reason ?? 'the session did not ask for it');
  const sessionId = await store.createSession({
    kind: 'compare',
    hostId,
    baseline: targets.baseline.ref,
    candidate: targets.candidate.ref,
    suite: request.suite.name,
    rounds: plan.design === 'paired' ? plan.maxPairs : request.rounds,
    pid: process.pid,
    pidStartTicks: processStartTicks(process.pid),
    settings: {
      runner: settings.runner,
      suiteFile: request.suite.file,
      tests: request.suite.tests.map((t) => ({ name: t.name, seconds: t.seconds, threads: t.threads })),
      // The levels as resolved on this host (`cores` made a number), so a report shows the threads really run.
      ...(request.suite.levels.length > 0 ? { levels: storedLevels(request.suite) } : {}),
      design: plan.design,
      budgetMinutes: plan.budgetMinutes,
      maxPairs: plan.maxPairs,
      idleServer: plan.idleServer,
      idleWindowMs: settings.idleWindowMs,
      idleStatesHeld: plan.idleStatesHeld,
      idleHoldReason: plan.idleHoldReason,
      // The session's memory setting is part of what its figures mean: reports head them with it.
      ...(request.memory !== undefined ? { memory: request.memory } : {}),
      ...(request.purpose !== undefined ? { purpose: request.purpose } : {}),
      ...(request.laneOnly !== undefined ? { laneOnly: { sides: [...request.laneOnly.sides] } } : {}),
      // Kept so `qpswatch show` judges the session again as it was judged, whatever the config says later.
      verdicts: plan.verdicts,
    },
  });
  const sessionLog = log.child({ sessionId });
  const shape =
    plan.design === 'paired'
      ? { budgetMinutes: plan.budgetMinutes, maxPairs: plan.maxPairs, idleServer: plan.idleServer }
      : { rounds: request.rounds };
  sessionLog.info(
    {
      baseline: targets.baseline.ref,
      candidate: targets.candidate.ref,
      suite: request.suite.name,
      design: plan.design,
      ...shape,
      idleStatesHeld: hold.held,
      ...(request.memory !== undefined ? { memory: request.memory } : {}),
    },
    `session ${sessionId} started: ${JSON.stringify(targets.baseline.ref.name)} against ` +
      `${JSON.stringify(targets.candidate.ref.name)}, suite ${request.suite.name}`,
  );
  if (plan.design === 'paired' && request.sequential !== false && request.laneOnly === undefined)
    warnLooksThatCannotReject(
      plan,
      request.suite.tests.reduce((a, t) => a + t.threads.length, 0),
      sessionLog,
    );

  const instances = targetInstances(settings, sessionId, targets, plan.design);
  let paired: PairedOutcome | undefined;
  let instructions: InstructionLaneInput | undefined;
  try {
    const device = findDataDevice(workDir);
    const report = deps.onWorkProgress;
    const progress =
      report === undefined
        ? undefined
        : sessionProgress(
            {
              design: plan.design,
              tag: request.candidate,
              suite: request.suite,
              rounds: request.rounds,
              budgetMinutes: plan.budgetMinutes,
              sweeps: plan.plannedSweeps,
            },
            report,
          );
    const datadirCache = LoadedDatadirCache.of(settings.cacheDir, settings.datadirCache, settings.minFreeBytes);
    const ctx: RoundContext = {
      store,
      log: sessionLog,
      signal: deps.signal,
      sessionId,
      device,
      runGraceSeconds: settings.runGraceSeconds,
      ...(datadirCache !== undefined ? { datadirCache } : {}),
      ...(progress !== undefined ? { progress } : {}),
      ...(request.memory !== undefined ? { memory: request.memory } : {}),
    };
    if (request.laneOnly !== undefined) {
      // Only the sides the lane counts are loaded: the good end of a bisection is not measured again.
      for (const role of request.laneOnly.sides) await loadTarget(instances[role], request.suite, ctx);
    } else if (plan.design === 'paired') {
      checkPairedMemory(instances);
      paired = await runPairedSession(
        request.suite,
        realSessionParts(instances, request.suite, ctx),
        {
          budgetMinutes: plan.budgetMinutes,
          maxPairs: plan.maxPairs,
          idleServer: plan.idleServer,
          idleSettleMaxSeconds: settings.idleSettleMaxSeconds,
          idleWindowMs: settings.idleWindowMs,
          verdicts: plan.verdicts,
          sequential: request.sequential !== false,
          instanceSeconds: plan.verdicts.instanceSeconds ?? settings.instanceSeconds,
          restartWarmupSeconds: Math.min(
            settings.instanceWarmupSeconds ?? RESTART_WARMUP_SECONDS,
            request.suite.warmup.seconds,
          ),
        },
        ctx,
      );
    } else await runSessionRounds(request, instances, ctx);
    // After the pairs, on the same loaded snapshots: instruction counts do not depend on the host's speed, the
    // pairs do, so they run first, as close to the quiet-host check as the session can be (docs/verdicts.md).
    if (lane !== undefined)
      instructions = await runInstructionLane(request.suite, instances, laneOf(lane, request.laneOnly), {
        store,
        log: sessionLog,
        signal: deps.signal,
        sessionId,
        cpuModel: fingerprint.cpuModel,
        ...(progress !== undefined ? { progress } : {}),
      });
    await store.finishSession(sessionId);
  } catch (err) {
    await recordFailure(store, sessionId, err, deps.signal);
    throw err;
  } finally {
    await Promise.all(Object.values(instances).map((i) => i.removeData()));
  }
  const session = await store.getSession(sessionId);
  const samples = await store.completedSamples(sessionId);
  const verdicts = judgeStored(plan, samples);
  if (paired !== undefined) paired = { ...paired, stoppedBy: stopReason(paired, verdicts, plan.plannedSweeps, plan) };
  sessionLog.info({ ...paired }, doneText(sessionId, paired));
  for (const v of verdicts.filter((x) => x.kind !== 'ok'))
    sessionLog.info(
      {
        test: v.test,
        threads: v.threads,
        verdict: v.kind,
        relativeQps: v.relativeQps,
        pSlower: v.pSlower,
        detectableDrop: v.detectableDrop,
      },
      `${testLabel(v)}: ${v.kind}`,
    );
  const sides = await sideDifferences(store, sessionId);
  const view = { ...compareSession(session!, samples, hostSummary(fingerprint), verdicts), ...sides };
  const laneView =
    instructions === undefined
      ? undefined
      : await sessionLaneView(store, sessionId, instructions, { settings: settings.instructions.verdicts });
  return {
    sessionId,
    view,
    verdicts,
    fingerprintId: fingerprintId(fingerprint),
    plan,
    ...(paired !== undefined ? { paired } : {}),
    ...(laneView !== undefined ? { instructions: laneView } : {}),
  };
}

/**
 * The instructions lane's plan when the request asks for it, found before anything is measured so the pre-flight
 * says what it will cost, or in one line why it will not run (the QPS lane goes on).
 */
async function instructionLanePlan(request: CompareRequest, deps: CompareDeps): Promise<LanePlan | undefined> {
  if (request.instructions !== true || deps.settings.instructions.counter === 'off') return undefined;
  const plan = await planInstructionLane(request.suite, deps.settings.instructions, {
    log: deps.log,
    signal: deps.signal,
  });
  if (plan.counter === undefined) deps.log.warn({ reason: plan.reason }, laneAnnouncement(plan));
  else deps.log.info({ counter: plan.counter.kind, repeats: plan.settings.repeats }, laneAnnouncement(plan));
  return plan;
}

/** The lane as the request narrows it: a lane-only session's sides and repeats. */
function laneOf(plan: LanePlan, laneOnly: CompareRequest['laneOnly']): LanePlan {
  if (laneOnly === undefined || plan.counter === undefined) return plan;
  return { ...plan, sides: laneOnly.sides, settings: { ...plan.settings, repeats: laneOnly.repeats } };
}

/** The io-bound buffer pool: the suite's own, sized with its data, else the io_bound_buffer_pool option's. */
function poolOf(request: CompareRequest, settings: CompareSettings): string {
  return request.suite.ioBoundBufferPool ?? settings.ioBoundBufferPool;
}

/** Both targets with their server profiles under the memory setting, when the session has one. */
function underMemorySetting(
  targets: Record<SampleRole, PreparedTarget>,
  memory: MemorySettingName | undefined,
  ioBoundPool: string,
): Record<SampleRole, PreparedTarget> {
  if (memory === undefined) return targets;
  return {
    baseline: withMemorySetting(targets.baseline, memory, ioBoundPool),
    candidate: withMemorySetting(targets.candidate, memory, ioBoundPool),
  };
}

/**
 * Before any session exists or anything is loaded: the suite's data against each side's buffer pool (as its my.cnf
 * will say), the host's memory and state_dir's disk and filesystem. A setting it cannot honour is one line.
 */
function checkMemoryFacts(
  request: CompareRequest,
  settings: CompareSettings,
  targets: Record<SampleRole, PreparedTarget>,
  workDir: string,
): void {
  const design = request.design ?? settings.design;
  const disk = statfsSync(workDir);
  const sides = sampleRoles.map((role) => ({
    profile: targets[role].profile.name,
    poolBytes: profilePoolBytes(targets[role].profile, targets[role].binaries),
  }));
  checkMemorySetting({
    setting: request.memory!,
    data: {
      suite: request.suite.name,
      loads: request.suite.loads.map((l) => ({ tables: l.tables, tableSize: l.tableSize })),
    },
    sides,
    serversAtOnce: design === 'paired' ? 2 : 1,
    overheadBytes: SERVER_OVERHEAD_BYTES,
    availableMemoryBytes: parseMeminfo(readFileSync('/proc/meminfo', 'utf8')).availableBytes,
    stateDir: settings.stateDir,
    freeDiskBytes: disk.bavail * disk.bsize,
    fsType: findDataDevice(workDir).mount?.fsType ?? '',
  });
}

/** A look whose sign vectors cannot go below its share of alpha can decide nothing but ok: said once, at the start. */
function warnLooksThatCannotReject(plan: SessionPlan, family: number, log: Logger): void {
  const planned = plan.verdicts.plannedBlocks ?? plan.maxPairs;
  const blind = lookReach(plan.verdicts.alpha, family, planned).filter((l) => !l.canReject);
  if (blind.length === 0) return;
  log.warn(
    { alpha: plan.verdicts.alpha, looks: blind.map((l) => l.blocks) },
    `the looks at ${blind.map((l) => l.blocks).join(', ')} blocks cannot call ` +
      `a drop significant at alpha ${plan.verdicts.alpha} (each spends less ` +
      `than the smallest p-value its pairs give); their detectable drop reads ` +
      `unreachable`,
  );
}

/**
 * Refuses (PreflightError) a session whose settings can never reach a verdict, before anything starts; returns how far
 * a paired session's budget reaches. runComparison calls it first; compare calls it before it waits for the host.
 */
export function checkSessionReach(request: CompareRequest, settings: CompareSettings): SweepPlan | undefined {
  return preflight({
    suite: request.suite,
    rounds: request.rounds,
    alpha: settings.verdicts.alpha,
    sequential: request.sequential !== false,
    instanceSeconds: request.instanceSeconds ?? settings.instanceSeconds,
    ...sessionShape(request, settings),
  });
}

/** The verdicts of a finished session, by its design. */
export function judgeStored(
  plan: Pick<SessionPlan, 'design' | 'verdicts'>,
  samples: readonly SampleRecord[],
): Verdict[] {
  return plan.design === 'paired'
    ? judgePairedSession(samples, plan.verdicts, true).verdicts
    : judgeSession(samples, plan.verdicts);
}

/** The warning a session without the hold logs: what it costs, the fix for this setting, and how to silence it. */
export function idleHoldWarning(hold: IdleStateHold): string {
  return (
    `idle states not held (${hold.reason}): QPS at low concurrency will ` +
    `drift with the host, and these results are not compared with held ` +
    `ones; ${hold.fix}; or set hold_idle_states: false to silence this`
  );
}

const STOP_TEXT: Record<PairedStop, string> = {
  decided: 'every test decided',
  budget: 'stopped at the budget',
  max_pairs: 'stopped at max_pairs',
};

/** "session 3 done: 21 sweeps in 7.7 min, stopped at the budget". */
function doneText(sessionId: number, paired: PairedOutcome | undefined): string {
  if (paired === undefined) return `session ${sessionId} done`;
  return (
    `session ${sessionId} done: ${paired.sweeps} sweeps in ${paired.minutes.toFixed(1)} min, ` +
    STOP_TEXT[paired.stoppedBy]
  );
}

/**
 * Why a paired session stopped, as people read it: "decided" only when every test got a verdict that closes it
 * (regression, improvement, ok). The last look of a session is planned at the pairs its budget pays for, and closes
 * every test still open as slower or unstable: that session ran out of budget (or of max_pairs, when those came first),
 * it did not decide.
 */
export function stopReason(
  outcome: Pick<PairedOutcome, 'stoppedBy'>,
  verdicts: readonly Pick<Verdict, 'kind'>[],
  plannedPairs: number,
  shape: Pick<SessionPlan, 'maxPairs'>,
): PairedStop {
  if (outcome.stoppedBy !== 'decided') return outcome.stoppedBy;
  if (verdicts.every((v) => v.kind === 'regression' || v.kind === 'improvement' || v.kind === 'ok')) return 'decided';
  return plannedPairs < shape.maxPairs ? 'budget' : 'max_pairs';
}

/** The design and the reach of a session: the request's own, else the config's, else (the budget) the suite's. */
function sessionShape(
  request: CompareRequest,
  settings: CompareSettings,
): Pick<SessionPlan, 'design' | 'budgetMinutes' | 'maxPairs'> {
  return {
    design: request.design ?? settings.design,
    budgetMinutes: request.budgetMinutes ?? settings.budgetMinutes ?? request.suite.budgetMinutes,
    maxPairs: request.maxPairs ?? settings.maxPairs,
  };
}

/**
 * The session's plan. A sequential paired session plans its looks for the blocks its budget pays for with every test
 * open (the pre-flight's): alpha is shared by the looks a session can take, so none is spent on looks past its
 * budget. It is not stopped at the pre-flight's count of sweeps: once tests are decided, a sweep is shorter and a
 * block takes more of them, and the budget those tests no longer use goes to the open ones until the last planned
 * look closes every test (or the budget ends first).
 */
function sessionPlan(
  request: CompareRequest,
  settings: CompareSettings,
  hold: IdleStateHold,
  reach: SweepPlan | undefined,
): SessionPlan {
  const shape = sessionShape(request, settings);
  const { maxPairs } = shape;
  const blocks = reach !== undefined ? reach.plannedBlocks : maxPairs;
  return {
    ...shape,
    maxPairs,
    plannedSweeps: reach !== undefined ? Math.max(1, Math.min(maxPairs, reach.sweeps)) : maxPairs,
    idleServer: settings.idleServer,
    idleStatesHeld: hold.held,
    idleHoldReason: hold.reason,
    // The looks follow from the blocks the plan pays for, and the blocks from instance_seconds: the verdicts (and
    // `show`, judging again) must know both.
    verdicts: {
      ...settings.verdicts,
      maxPairs,
      plannedBlocks: blocks,
      instanceSeconds: request.instanceSeconds ?? settings.instanceSeconds,
    },
  };
}

/** Each side's work folder and private socket in this session (short socket names: unix paths are limited). */
function targetInstances(
  settings: CompareSettings,
  sessionId: number,
  targets: Record<SampleRole, PreparedTarget>,
  design: SessionDesignName,
): Record<SampleRole, TargetInstance> {
  const sessionDir = join(settings.stateDir, 'work', `session-${sessionId}`);
  const instance = (role: SampleRole): TargetInstance => {
    const socket = join(settings.stateDir, 'run', `${sessionId}-${role[0]}.sock`);
    // Paired sessions run both servers at once: the candidate listens on the next port.
    const port = settings.serverPort + (design === 'paired' && role === 'candidate' ? 1 : 0);
    const network: ServerNetwork | undefined = settings.serverPort > 0 ? { port, bindAddress: '127.0.0.1' } : undefined;
    return new TargetInstance(
      targets[role],
      join(sessionDir, role),
      socket,
      network,
      settings.serverUser,
      settings.serverTimeouts,
    );
  };
  return { baseline: instance('baseline'), candidate: instance('candidate') };
}

async function runSessionRounds(
  request: CompareRequest,
  instances: Record<SampleRole, TargetInstance>,
  deps: RoundContext,
): Promise<void> {
  for (const role of ['baseline', 'candidate'] as const) {
    deps.signal.throwIfAborted();
    await loadTarget(instances[role], request.suite, deps);
  }
  for (let round = 1; round <= request.rounds; round++) {
    for (const role of roundOrder(round)) {
      deps.signal.throwIfAborted();
      deps.log.info(
        { round, rounds: request.rounds, role, target: instances[role].target.name },
        `round ${round} of ${request.rounds}: ${role}`,
      );
      await runRound(instances[role], role, round, request.suite, deps);
    }
  }
}

/** A person's SIGINT leaves the session interrupted (it is redone); any other error marks it failed with the reason. */
async function recordFailure(store: SessionStore, sessionId: number, err: unknown, signal: AbortSignal): Promise<void> {
  const reason = err instanceof Error ? err.message : String(err);
  if (signal.aborted) await store.interruptSession(sessionId, reason);
  else await store.failSession(sessionId, reason);
}

/**
 * The report's host line: the fingerprint's identity facts, then what the inventory says of the machine and its disk.
 */
export function hostSummary(fp: HostFingerprint): Record<string, string | number | boolean> {
  const identity = {
    cpu: fp.cpuModel,
    cores: fp.cores,
    threads: fp.threads,
    memGiB: Math.round(fp.memoryBytes / 2 ** 30),
    kernel: fp.kernel,
    disk: fp.dataDevice,
    fs: fp.filesystem,
  };
  // Whether the session held the idle states: the first thing to look at when a daemon's figures differ from a CLI
  // run's.
  const hold: Record<string, boolean> =
    typeof fp.idleStatesHeld === 'boolean' ? { idleStatesHeld: fp.idleStatesHeld } : {};
  return { ...identity, ...hold, ...inventoryHostFacts(fp.inventory) };
}
