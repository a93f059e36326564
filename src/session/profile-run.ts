import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import type { FrameShareRow, ProfileSide, ProfilingMode, SampleRole } from '../model/index.js';
import { profileProcess, rankGrownFrames } from '../profile/index.js';
import { cleanUpKilledSessions, privateDir, serverAccount } from '../server/index.js';
import type { ProfileStore, ReleaseStore, SessionStore } from '../store/index.js';
import { findSysbench, runArgv, runSysbench, type Suite, type SuiteTest } from '../suite/index.js';
import type { Upstream } from '../upstream/index.js';
import { connection, loadTarget, warmUpLoads } from './round.js';
import type { CompareSettings } from './settings.js';
import { resolveTarget, type PreparedTarget } from './target.js';
import { prepareStateFolders, TargetInstance } from './target-instance.js';

export interface ProfileRequest {
  baseline: string;
  candidate: string;
  /** The suite the test is taken from: its load, warm-up and script arguments. */
  suite: Suite;
  test: SuiteTest;
  threads: number;
  /** How long each server is sampled while the test runs on it. */
  seconds: number;
  mode: ProfilingMode;
  /** The check's session this profile is taken for (its worst regressed test), stored with the profile. */
  sessionId?: number;
}

export interface ProfileDeps {
  settings: CompareSettings;
  /** listSessions: what killed sessions left is cleaned before the profile's servers start. */
  store: ProfileStore & ReleaseStore & Pick<SessionStore, 'listSessions'>;
  log: Logger;
  upstreams: readonly Upstream[];
  signal: AbortSignal;
}

export interface ProfileOutcome {
  id: number;
  baseline: ProfileSide;
  candidate: ProfileSide;
  grown: FrameShareRow[];
}

/** sysbench starts this long before the profiler, so the samples see the test running, not its connections opening. */
const LEAD_SECONDS = 1;
/** And runs this long after the profiler has stopped. */
const TAIL_SECONDS = 1;

/**
 * Reruns one test on each server in turn (one server up at a time: a profile of the other's idle background work is
 * not wanted) under a sampling profiler, stores both sides' folded stacks, and ranks the functions whose share of the
 * samples grew from the baseline to the candidate.
 */
export async function runProfile(request: ProfileRequest, deps: ProfileDeps): Promise<ProfileOutcome> {
  const { settings, log } = deps;
  await cleanUpKilledSessions({ stateDir: settings.stateDir, serverUser: settings.serverUser ?? '' }, deps.store, log);
  const sources = { ...settings, upstreams: deps.upstreams, store: deps.store, log };
  const targets: Record<SampleRole, PreparedTarget> = {
    baseline: await resolveTarget(request.baseline, sources),
    candidate: await resolveTarget(request.candidate, sources),
  };
  findSysbench();
  await prepareStateFolders(settings.stateDir, settings.serverUser);
  const workDir = join(settings.stateDir, 'work', `profile-${process.pid}-${Date.now()}`);
  // Made as a session's folder is: the server account (when qpswatch is root) must pass through it to its datadir.
  await privateDir(workDir, serverAccount(settings.serverUser));
  try {
    const baseline = await profileSide('baseline', targets.baseline, workDir, request, deps);
    const candidate = await profileSide('candidate', targets.candidate, workDir, request, deps);
    const id = await deps.store.addProfile({
      baseline: request.baseline,
      candidate: request.candidate,
      test: request.test.name,
      threads: request.threads,
      seconds: request.seconds,
      baselineTool: baseline.tool,
      candidateTool: candidate.tool,
      baselineStacks: baseline.stacks,
      candidateStacks: candidate.stacks,
      ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
    });
    return { id, baseline, candidate, grown: rankGrownFrames(baseline.stacks, candidate.stacks) };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** One target: loaded with the test's data, started, warmed up, then sampled while the test runs on it. */
async function profileSide(
  role: SampleRole,
  target: PreparedTarget,
  workDir: string,
  request: ProfileRequest,
  deps: ProfileDeps,
): Promise<ProfileSide> {
  const { settings, log, signal } = deps;
  const socket = join(settings.stateDir, 'run', `p${process.pid}-${role[0]}.sock`);
  const network = settings.serverPort > 0 ? { port: settings.serverPort, bindAddress: '127.0.0.1' } : undefined;
  const instance = new TargetInstance(
    target,
    join(workDir, role),
    socket,
    network,
    settings.serverUser,
    settings.serverTimeouts,
  );
  const suite: Suite = { ...request.suite, tests: [request.test], loads: [request.test.load] };
  try {
    await loadTarget(instance, suite, { log, signal });
    await instance.restoreSnapshot();
    const server = await instance.start(log);
    try {
      await warmUpLoads(suite, connection(instance), instance.sysbenchLog, { log, signal });
      log.info({ role, target: target.name, seconds: request.seconds }, `profiling ${role} ${target.name}`);
      return await sampleDuringTest(server.pid, instance, request, workDir, deps);
    } finally {
      await server.stop();
    }
  } finally {
    await instance.removeData();
  }
}

async function sampleDuringTest(
  pid: number,
  instance: TargetInstance,
  request: ProfileRequest,
  workDir: string,
  deps: ProfileDeps,
): Promise<ProfileSide> {
  const seconds = LEAD_SECONDS + request.seconds + TAIL_SECONDS;
  const test = runSysbench(runArgv(request.test, request.threads, connection(instance), seconds), {
    logFile: instance.sysbenchLog,
    timeoutMs: seconds * 1000 + 120_000,
    signal: deps.signal,
    log: deps.log,
  });
  const profile = (async () => {
    await new Promise((resolve) => setTimeout(resolve, LEAD_SECONDS * 1000));
    return profileProcess({
      pid,
      seconds: request.seconds,
      mode: request.mode,
      workDir,
      signal: deps.signal,
      log: deps.log,
    });
  })();
  // Both are waited for, whichever fails: neither sysbench nor the profiler may outlive the server.
  const [ran, sampled] = await Promise.allSettled([test, profile]);
  if (sampled.status === 'rejected') throw sampled.reason;
  if (ran.status === 'rejected') throw ran.reason;
  return sampled.value;
}
