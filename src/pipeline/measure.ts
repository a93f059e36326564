import { diffHostSnapshots, perOperation, readGlobalStatus, statusDelta, takeHostSnapshot, type DataDevice, type ObserverCost, type StatusConnection } from '../sampling/index.js';
import type { SampleInput } from '../store/index.js';
import type { SampleRole } from '../model/index.js';
import type { Logger } from '../log/index.js';
import { runArgv, runSysbench, type SuiteTest, type SysbenchConnection } from '../suite/index.js';

export interface MeasureInput {
  /** A connection of its own to the server, for SHOW GLOBAL STATUS. */
  status: StatusConnection;
  /** What the two status readings add to the counters themselves, subtracted from every delta. */
  observer: ObserverCost;
  conn: SysbenchConnection;
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
}

/** sysbench gets its run time plus this much to connect, start threads and report before it counts as hung. */
const SYSBENCH_GRACE_MS = 120_000;

/**
 * One sample: host and database counters read right before and right after one sysbench run, so they cover the
 * measured interval only. Reading them costs two file reads and two queries per run: nothing during the run.
 */
export async function measureTest(input: MeasureInput): Promise<SampleInput> {
  const argv = runArgv(input.test, input.threads, input.conn);
  const statusBefore = await readGlobalStatus(input.status);
  const hostBefore = takeHostSnapshot(input.device);
  const result = await runSysbench(argv, { logFile: input.sysbenchLog, timeoutMs: input.test.seconds * 1000 + SYSBENCH_GRACE_MS, signal: input.signal, log: input.log });
  const hostAfter = takeHostSnapshot(input.device);
  const statusAfter = await readGlobalStatus(input.status);
  const host = diffHostSnapshots(hostBefore, hostAfter);
  const perOp = perOperation(host, result.qps);
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
    ...perOp,
    host,
    dbCounters: Object.fromEntries(db.counters.map((c) => [c.name, { delta: c.delta, perOp: c.perOp }])),
  };
}
