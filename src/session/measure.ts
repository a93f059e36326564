import {
  diffHostSnapshots,
  perOperation,
  processCpuSeconds,
  readGlobalStatus,
  statusDelta,
  takeHostSnapshot,
  type DataDevice,
  type ObserverCost,
  type PerOpSample,
  type StatusConnection,
} from '../sampling/index.js';
import type { SampleInput } from '../store/index.js';
import { testLabel, type PerOp, type SampleRole } from '../model/index.js';
import { serverDeath, ServerDiedError, type RunningServer } from '../server/index.js';
import type { Logger } from '../log/index.js';
import { runArgv, runSysbench, type SuiteTest, type SysbenchConnection } from '../suite/index.js';

export interface MeasureInput {
  /** A connection of its own to the server, for SHOW GLOBAL STATUS. */
  status: StatusConnection;
  /** What the two status readings add to the counters themselves, subtracted from every delta. */
  observer: ObserverCost;
  conn: SysbenchConnection;
  /** The server measured: when a run fails, whether it died is the first question. */
  server: Pick<RunningServer, 'pid' | 'exited' | 'errorLog'>;
  device: DataDevice;
  test: SuiteTest;
  threads: number;
  round: number;
  role: SampleRole;
  targetName: string;
  sysbenchLog: string;
  signal: AbortSignal;
  /** sysbench's exit is logged through exec. */
  log: Logger;
  /** How long past the test's seconds the run may go before it counts as hung (run_grace_seconds); default 60 s. */
  graceMs?: number;
}

/**
 * sysbench gets its run time plus this much to connect, start threads and report before it counts as hung: more than
 * InnoDB's default lock wait (50 s), which a client thread may sit in when the time is up.
 */
const SYSBENCH_GRACE_MS = 60_000;
/** A server killed under a run is reaped within milliseconds; a run that failed for another reason waits this long. */
const DEATH_WAIT_MS = 1000;

/** A measured run that failed: which test, side and round, and why (the server's death, when that is the cause). */
export class MeasureFailedError extends Error {
  constructor(
    readonly where: string,
    override readonly cause: unknown,
    logFile: string,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    // sysbench's own failures name its log; the others get it here, since it holds what sysbench printed.
    super(
      `${where}: ${reason}${reason.includes(logFile) || cause instanceof ServerDiedError ? '' : ` (log: ${logFile})`}`,
    );
    this.name = new.target.name;
  }
}

/**
 * One sample: host and database counters read right before and right after one sysbench run, so they cover the
 * measured interval only. Reading them costs two file reads and two queries per run: nothing during the run. A
 * failure is told with its test, side and round, and the server's death as its cause when the server died.
 */
export async function measureTest(
  input: MeasureInput,
  measure: (input: MeasureInput) => Promise<SampleInput> = measureOnce,
): Promise<SampleInput> {
  try {
    return await measure(input);
  } catch (err) {
    if (input.signal.aborted) throw err;
    const where =
      `test ${testLabel({ test: input.test.name, threads: input.threads })} ` +
      `on ${input.role} ${input.targetName}, round ${input.round}`;
    throw new MeasureFailedError(where, (await serverDeath(input.server, DEATH_WAIT_MS)) ?? err, input.sysbenchLog);
  }
}

/** The run itself, failures not attributed: the session's parts (session-parts.ts) give it to measureTest. */
export async function measureOnce(input: MeasureInput): Promise<SampleInput> {
  const argv = runArgv(input.test, input.threads, input.conn);
  const statusBefore = await readGlobalStatus(input.status);
  const hostBefore = takeHostSnapshot(input.device);
  const serverCpuBefore = processCpuSeconds(input.server.pid);
  const result = await runSysbench(argv, {
    logFile: input.sysbenchLog,
    timeoutMs: input.test.seconds * 1000 + (input.graceMs ?? SYSBENCH_GRACE_MS),
    signal: input.signal,
    log: input.log,
  });
  const serverCpuAfter = processCpuSeconds(input.server.pid);
  const hostAfter = takeHostSnapshot(input.device);
  const statusAfter = await readGlobalStatus(input.status);
  const host = diffHostSnapshots(hostBefore, hostAfter);
  const perOp = perOperation(
    { ...host, ...serverCpuRate(serverCpuBefore, serverCpuAfter, host.seconds) },
    result.qps,
    input.threads,
  );
  const db = statusDelta(statusBefore, statusAfter, result.queries, input.observer);
  return {
    round: input.round,
    role: input.role,
    targetName: input.targetName,
    test: input.test.name,
    threads: input.threads,
    seconds: result.seconds,
    qps: result.qps,
    tps: result.tps,
    latencyAvgMs: result.latencyMs.avg,
    latencyP95Ms: result.latencyMs.p95,
    latencyMaxMs: result.latencyMs.max,
    errors: result.errors,
    reconnects: result.reconnects,
    ...knownFigures(perOp),
    host,
    dbCounters: Object.fromEntries(db.counters.map((c) => [c.name, { delta: c.delta, perOp: c.perOp }])),
  };
}

/** The server process's CPU seconds per second over the run; nothing when either reading failed (it had gone). */
function serverCpuRate(
  before: number | undefined,
  after: number | undefined,
  seconds: number,
): { serverCpuPerSec?: number } {
  if (before === undefined || after === undefined || !(seconds > 0)) return {};
  return { serverCpuPerSec: Math.max(0, after - before) / seconds };
}

/** The run's figures less a time figure that could not be computed (NaN): kept absent, as in older results. */
function knownFigures(perOp: PerOpSample): PerOp {
  return Object.fromEntries(Object.entries(perOp).filter(([, value]) => !Number.isNaN(value))) as PerOp;
}
