import type { SampleRole } from '../model/index.js';
import { observerCost, processCpuSeconds, processWriteBytes, readGlobalStatus } from '../sampling/index.js';
import type { RunningServer } from '../server/index.js';
import type { SampleInput } from '../store/index.js';
import type { Suite, SuiteLoad } from '../suite/index.js';
import type { RowCounter } from './data-changing.js';
import { measureOnce, type MeasureInput } from './measure.js';
import { cacheTables, connection, loadTarget, warmUpLoads, type RoundContext } from './round.js';
import { keepServerVariables } from './server-variables.js';
import { keepStatementPlans } from './statement-plans.js';
import type { TargetInstance } from './target-instance.js';

/** One side's server while a paired session runs, as the session engine sees it. */
export interface SideServer {
  readonly targetName: string;
  /** The process: its pid for the drain and the logs; exited and errorLog tell a death from another failure. */
  readonly server: Pick<RunningServer, 'pid' | 'exited' | 'errorLog' | 'pause' | 'resume'>;
  /** What each measured run on this side reads: its own status connection, that reading's cost, sysbench's login. */
  readonly reading: Pick<MeasureInput, 'status' | 'observer' | 'conn' | 'sysbenchLog'>;
  /** Ends the status connection and stops the server; resolves when no process is left. */
  close(): Promise<void>;
}

/** CPU seconds and bytes written so far by a process. */
export interface ProcessActivity {
  cpu: number;
  written: number;
}

/** The session's time: the budget, the pair durations and the drain's waits read it. */
export interface SessionClock {
  now(): number;
  /** No abort signal: the drain checks its signal between waits, as it always did. */
  sleep(ms: number): Promise<void>;
}

/**
 * Everything a paired session starts and reads, in one object: the real parts (realSessionParts) run mysqld,
 * sysbench and /proc readings; unit tests give small fakes. Each part that acts on a side is told its role.
 */
export interface SessionParts {
  /** Initialises and loads the side's target, and keeps the loaded datadir as its snapshot. */
  load(role: SampleRole): Promise<void>;
  /**
   * Starts the side's server on a fresh copy of its snapshot (tables cached when the session asks) and opens its
   * status connection.
   */
  start(role: SampleRole): Promise<SideServer>;
  /** The warm-up runs on the side's server; `seconds` shortens them (a restarted server's brief warm-up). */
  warmUp(role: SampleRole, seconds?: number): Promise<void>;
  /** The rows of each loaded table of a data set on the side's server (the row-count check after a first pair). */
  rowCounts: RowCounter;
  /** One measured run and the readings around it; the engine tells its failures (measureTest). */
  measure(input: MeasureInput): Promise<SampleInput>;
  /** What the drain watches: undefined once the process is gone. */
  activity(pid: number): ProcessActivity | undefined;
  clock: SessionClock;
}

export const systemClock: SessionClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Today's parts: the two targets' instances, real servers, real sysbench, this host's /proc. */
export function realSessionParts(
  instances: Record<SampleRole, TargetInstance>,
  suite: Suite,
  ctx: RoundContext,
): SessionParts {
  // The servers up now, for the row counts: each start replaces its side's.
  const ups: Partial<Record<SampleRole, SideServer>> = {};
  return {
    load: (role) => loadTarget(instances[role], suite, ctx),
    start: async (role) => (ups[role] = await startSideServer(instances[role], role, suite, ctx)),
    warmUp: (role, seconds) =>
      warmUpLoads(
        seconds === undefined ? suite : { ...suite, warmup: { ...suite.warmup, seconds } },
        connection(instances[role]),
        instances[role].sysbenchLog,
        ctx,
      ),
    rowCounts: (role, load) => countRows(ups, role, load),
    measure: measureOnce,
    activity,
    clock: systemClock,
  };
}

async function startSideServer(
  instance: TargetInstance,
  role: SampleRole,
  suite: Suite,
  ctx: RoundContext,
): Promise<SideServer> {
  await instance.restoreSnapshot();
  ctx.signal.throwIfAborted();
  const server = await instance.start(ctx.log);
  try {
    if (ctx.memory === 'cached') await cacheTables(server, instance, suite, ctx);
    const status = await server.connect();
    await keepServerVariables(instance, role, status, ctx);
    await keepStatementPlans(instance, role, suite, server, connection(instance), ctx);
    const observer = observerCost(await readGlobalStatus(status), await readGlobalStatus(status));
    const close = async (): Promise<void> => {
      try {
        await status.end();
      } catch {
        // A connection to a server that died is gone already.
      }
      await server.stop();
    };
    const reading = { status, observer, conn: connection(instance), sysbenchLog: instance.sysbenchLog };
    return { targetName: instance.target.name, server, reading, close };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** COUNT(*) of every loaded table of the data set, on the side's server, through its status connection. */
async function countRows(
  ups: Partial<Record<SampleRole, SideServer>>,
  role: SampleRole,
  load: SuiteLoad,
): Promise<number[]> {
  const up = ups[role];
  if (up === undefined) throw new Error(`the ${role} server is not up`);
  const counts: number[] = [];
  // The names are qpswatch's own (sbtest, sbtest_l1, ...; sbtest1, sbtest2, ...), never the suite file's text.
  for (let table = 1; table <= load.tables; table++) {
    const [rows] = await up.reading.status.query(`SELECT COUNT(*) AS n FROM ${load.database}.sbtest${table}`);
    counts.push(Number((rows as Array<{ n: number | string }>)[0]?.n ?? Number.NaN));
  }
  return counts;
}

/** A process whose io file cannot be read counts as writing nothing. */
function activity(pid: number): ProcessActivity | undefined {
  const cpu = processCpuSeconds(pid);
  return cpu === undefined ? undefined : { cpu, written: processWriteBytes(pid) ?? 0 };
}
