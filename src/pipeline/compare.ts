import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { compareSession, judgeSession, type TestVerdict } from '../analysis/index.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import type { ComparisonView } from '../report/index.js';
import { findDataDevice, fingerprintId, hostFingerprint, type DataDevice, type HostFingerprint } from '../sampling/index.js';
import type { ServerNetwork } from '../server/index.js';
import type { SampleRole, Store } from '../store/index.js';
import { findSysbench, type Suite } from '../suite/index.js';
import { TargetInstance } from './instance.js';
import { loadTarget, runRound } from './round.js';
import { roundOrder } from './round-order.js';
import { resolveTarget, type PreparedTarget } from './target.js';
import type { Upstream } from '../upstream/index.js';

export interface CompareRequest {
  baseline: string;
  candidate: string;
  suite: Suite;
  rounds: number;
}

export interface CompareDeps {
  config: Config;
  store: Store;
  log: Logger;
  /** Built releases of these upstreams can be named as targets by their tag. */
  upstreams: readonly Upstream[];
  /** Aborted by SIGINT/SIGTERM: the running sysbench and mysqld are stopped and the session is left interrupted. */
  signal: AbortSignal;
}

export interface CompareOutcome {
  sessionId: number;
  view: ComparisonView;
  verdicts: TestVerdict[];
  /** The host's fingerprint id: results of other ids are never compared with these. */
  fingerprintId: string;
}

/**
 * One comparison session: both targets are loaded once, then run in `rounds` rounds in alternating order, each
 * round on a fresh copy of the loaded datadir. Every sample is stored as it is measured; only a session that ends
 * `done` is read back for the report.
 */
export async function runComparison(request: CompareRequest, deps: CompareDeps): Promise<CompareOutcome> {
  const { config, store, log } = deps;
  // Everything a person can get wrong is checked before a session exists or a server starts.
  const targets = {
    baseline: await resolveTarget(request.baseline, config, deps.upstreams, store),
    candidate: await resolveTarget(request.candidate, config, deps.upstreams, store),
  };
  findSysbench();
  const workDir = join(config.state_dir, 'work');
  await mkdir(join(config.state_dir, 'run'), { recursive: true });
  await mkdir(workDir, { recursive: true });
  const fingerprint = await hostFingerprint(workDir);
  const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fingerprint), fingerprint });
  const sessionId = await store.createSession({
    kind: 'compare',
    hostId,
    baseline: targets.baseline.ref,
    candidate: targets.candidate.ref,
    suite: request.suite.name,
    rounds: request.rounds,
    pid: process.pid,
    settings: { suiteFile: request.suite.file, tests: request.suite.tests.map((t) => ({ name: t.name, seconds: t.seconds, threads: t.threads })) },
  });
  const sessionLog = log.child({ sessionId });
  sessionLog.info({ baseline: targets.baseline.ref, candidate: targets.candidate.ref, suite: request.suite.name, rounds: request.rounds }, 'session started');

  const instances = targetInstances(config, sessionId, targets);
  try {
    const device = findDataDevice(workDir);
    await runSessionRounds(request, instances, { ...deps, log: sessionLog, sessionId, device });
    await store.finishSession(sessionId);
    sessionLog.info('session done');
  } catch (err) {
    await recordFailure(store, sessionId, err, deps.signal);
    throw err;
  } finally {
    await Promise.all(Object.values(instances).map((i) => i.removeData()));
  }
  const session = await store.getSession(sessionId);
  const samples = await store.completedSamples(sessionId);
  const verdicts = judgeSession(samples, { threshold: config.threshold, testThresholds: config.test_thresholds, alpha: config.alpha });
  for (const v of verdicts.filter((x) => x.kind !== 'ok')) sessionLog.info({ test: v.test, threads: v.threads, verdict: v.kind, relativeQps: v.relativeQps, pSlower: v.pSlower }, `${v.test} t${v.threads}: ${v.kind}`);
  return { sessionId, view: compareSession(session!, samples, hostSummary(fingerprint), verdicts), verdicts, fingerprintId: fingerprintId(fingerprint) };
}

/** Each side's work folder and private socket in this session (short socket names: unix paths are limited). */
function targetInstances(config: Config, sessionId: number, targets: Record<SampleRole, PreparedTarget>): Record<SampleRole, TargetInstance> {
  const sessionDir = join(config.state_dir, 'work', `session-${sessionId}`);
  const network: ServerNetwork | undefined = config.server_port > 0 ? { port: config.server_port, bindAddress: '127.0.0.1' } : undefined;
  const user = config.server_user === '' ? undefined : config.server_user;
  const instance = (role: SampleRole): TargetInstance => {
    const socket = join(config.state_dir, 'run', `${sessionId}-${role[0]}.sock`);
    return new TargetInstance(targets[role], join(sessionDir, role), socket, network, user, config.server_start_timeout_seconds * 1000);
  };
  return { baseline: instance('baseline'), candidate: instance('candidate') };
}

interface RoundDeps extends CompareDeps {
  sessionId: number;
  device: DataDevice;
}

async function runSessionRounds(request: CompareRequest, instances: Record<SampleRole, TargetInstance>, deps: RoundDeps): Promise<void> {
  for (const role of ['baseline', 'candidate'] as const) {
    deps.signal.throwIfAborted();
    await loadTarget(instances[role], request.suite, deps);
  }
  for (let round = 1; round <= request.rounds; round++) {
    for (const role of roundOrder(round)) {
      deps.signal.throwIfAborted();
      deps.log.info({ round, rounds: request.rounds, role, target: instances[role].target.name }, `round ${round} of ${request.rounds}: ${role}`);
      await runRound(instances[role], role, round, request.suite, deps);
    }
  }
}

/** A person's SIGINT leaves the session interrupted (it is redone); any other error marks it failed with the reason. */
async function recordFailure(store: Store, sessionId: number, err: unknown, signal: AbortSignal): Promise<void> {
  const reason = err instanceof Error ? err.message : String(err);
  if (signal.aborted) await store.interruptSession(sessionId, reason);
  else await store.failSession(sessionId, reason);
}

function hostSummary(fp: HostFingerprint): Record<string, string | number | boolean> {
  return { cpu: fp.cpuModel, cores: fp.cores, threads: fp.threads, memGiB: Math.round(fp.memoryBytes / 2 ** 30), kernel: fp.kernel, disk: fp.dataDevice, fs: fp.filesystem };
}
