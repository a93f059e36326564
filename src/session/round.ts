import type { Logger } from '../log/index.js';
import { observerCost, readGlobalStatus, type DataDevice } from '../sampling/index.js';
import type { RunningServer } from '../server/index.js';
import type { SampleStore, SessionSideStore } from '../store/index.js';
import type { MemorySettingName, SampleRole } from '../model/index.js';
import {
  prepareArgv,
  prepareSysbench,
  runSysbench,
  warmupArgv,
  type Suite,
  type SysbenchConnection,
} from '../suite/index.js';
import type { LoadedDatadirCache } from './datadir-cache.js';
import type { TargetInstance } from './target-instance.js';
import { measureTest } from './measure.js';
import { keepServerVariables } from './server-variables.js';
import { keepStatementPlans } from './statement-plans.js';
import { readTablesIntoPool } from './cache-tables.js';
import type { SessionProgress } from './session-progress.js';

export interface RoundContext {
  /** Each sample is written as it is measured; what each side runs with (variables, plans) after its first start. */
  store: Pick<SampleStore, 'addSample'> & Pick<SessionSideStore, 'recordServerVariables' | 'recordStatementPlans'>;
  log: Logger;
  signal: AbortSignal;
  sessionId: number;
  device: DataDevice;
  /** Told of each load, warm-up and measured run (the daemon's status and metrics). */
  progress?: SessionProgress;
  /** cached: every server start reads the tables into its buffer pool before the warm-up (cache-tables.ts). */
  memory?: MemorySettingName;
  /** run_grace_seconds: a measured run's time past its seconds before it counts as hung; default 60. */
  runGraceSeconds?: number;
  /** Loaded datadirs kept between sessions (datadir_cache); none: each load starts from an empty datadir. */
  datadirCache?: LoadedDatadirCache;
}

/** Loading the quick suite takes seconds; a large small-server table can take an hour on a small host. */
const LOAD_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** sysbench as root over the instance's socket, its password read from the instance's option file. */
export function connection(instance: TargetInstance): SysbenchConnection {
  return { socket: instance.paths.socket, user: 'root', optionsFile: instance.sysbenchPasswordFile };
}

/** Runs fn with the instance's server started, and always stops it, whatever fn does. */
async function withServer<T>(
  instance: TargetInstance,
  log: Logger,
  fn: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await instance.start(log);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/**
 * Initialises the target's datadir, loads each of the suite's data sets into its own database (a suite with levels
 * has one per distinct load), and keeps the result as the snapshot rounds copy. With a datadir cache, a loaded
 * datadir of the same server, settings and load is copied instead, and a new load is kept there for later sessions.
 */
export async function loadTarget(
  instance: TargetInstance,
  suite: Suite,
  ctx: Pick<RoundContext, 'log' | 'signal' | 'progress' | 'datadirCache'>,
): Promise<void> {
  ctx.progress?.loading();
  await instance.prepare(ctx.log);
  ctx.signal.throwIfAborted();
  const cache = ctx.datadirCache;
  const key = await cache?.key(instance.target, suite);
  if (cache !== undefined && key !== undefined && (await instance.takeCachedDatadir(cache, key, ctx.log))) {
    ctx.log.info(
      { target: instance.target.name, key },
      `${instance.target.name}: its loaded datadir copied from the cache (datadir_cache), not loaded again`,
    );
    // The first start gives root this session's password.
    await withServer(instance, ctx.log, () => Promise.resolve());
  } else {
    await loadAnew(instance, suite, ctx);
    if (cache !== undefined && key !== undefined) await cache.put(key, instance.paths.datadir, ctx.log);
  }
  await instance.keepAsSnapshot();
}

async function loadAnew(
  instance: TargetInstance,
  suite: Suite,
  ctx: Pick<RoundContext, 'log' | 'signal'>,
): Promise<void> {
  const rows = suite.loads.reduce((sum, load) => sum + load.tables * load.tableSize, 0);
  ctx.log.info(
    {
      target: instance.target.name,
      loads: suite.loads.map((l) => ({ database: l.database, tables: l.tables, tableSize: l.tableSize })),
      rows,
    },
    `loading ${rows} rows into ${instance.target.name}`,
  );
  await instance.initialiseDatadir(ctx.log);
  ctx.signal.throwIfAborted();
  await withServer(instance, ctx.log, async (server) => {
    for (const load of suite.loads) {
      ctx.signal.throwIfAborted();
      // The name is qpswatch's own (sbtest, sbtest_l1, ...), never the suite file's text.
      await server.query(`CREATE DATABASE IF NOT EXISTS ${load.database}`);
      await prepareSysbench(prepareArgv({ load }, connection(instance)), {
        logFile: instance.sysbenchLog,
        timeoutMs: LOAD_TIMEOUT_MS,
        signal: ctx.signal,
        log: ctx.log,
      });
    }
  });
}

/** The warm-up run once per data set, so every level's tables are in the caches before its tests are measured. */
export async function warmUpLoads(
  suite: Suite,
  conn: SysbenchConnection,
  logFile: string,
  ctx: Pick<RoundContext, 'signal' | 'log'>,
): Promise<void> {
  for (const load of suite.loads) {
    ctx.signal.throwIfAborted();
    await runSysbench(warmupArgv({ ...suite.warmup, load }, conn), {
      logFile,
      timeoutMs: suite.warmup.seconds * 1000 + 120_000,
      signal: ctx.signal,
      log: ctx.log,
    });
  }
}

/**
 * One round of one target: a fresh copy of the loaded datadir, the warm-up run, then every test at every thread count.
 */
export async function runRound(
  instance: TargetInstance,
  role: SampleRole,
  round: number,
  suite: Suite,
  ctx: RoundContext,
): Promise<void> {
  await instance.restoreSnapshot();
  // A stop asked for while the datadir was copied: no server is started just to be stopped again.
  ctx.signal.throwIfAborted();
  await withServer(instance, ctx.log, async (server) => {
    const conn = connection(instance);
    if (ctx.memory === 'cached') await cacheTables(server, instance, suite, ctx);
    ctx.log.info({ target: instance.target.name, seconds: suite.warmup.seconds }, 'warm-up');
    ctx.progress?.warmingUp(round);
    await warmUpLoads(suite, conn, instance.sysbenchLog, ctx);
    const status = await server.connect();
    try {
      await keepServerVariables(instance, role, status, ctx);
      await keepStatementPlans(instance, role, suite, server, conn, ctx);
      const observer = observerCost(await readGlobalStatus(status), await readGlobalStatus(status));
      const runs = suite.tests.flatMap((test) => test.threads.map((threads) => ({ test, threads })));
      for (const [i, { test, threads }] of runs.entries()) {
        ctx.signal.throwIfAborted();
        ctx.log.info(
          { round, role, test: test.name, threads, seconds: test.seconds },
          `test ${i + 1} of ${runs.length}: ${test.name} t${threads}`,
        );
        ctx.progress?.testStarts(round, test.name, threads, test.seconds);
        const sample = await measureTest({
          status,
          observer,
          conn,
          server,
          device: ctx.device,
          test,
          threads,
          round,
          role,
          targetName: instance.target.name,
          sysbenchLog: instance.sysbenchLog,
          ...(ctx.runGraceSeconds !== undefined ? { graceMs: ctx.runGraceSeconds * 1000 } : {}),
          signal: ctx.signal,
          log: ctx.log,
        });
        await ctx.store.addSample(ctx.sessionId, sample);
        ctx.log.info(
          { round, role, test: test.name, threads, qps: sample.qps },
          `${test.name} t${threads}: ${sample.qps.toFixed(0)} qps`,
        );
      }
    } finally {
      await status.end();
    }
  });
}

/**
 * The cached setting: every data set's tables read into the server's pool, and checked to stay there, before its
 * warm-up.
 */
export async function cacheTables(
  server: RunningServer,
  instance: TargetInstance,
  suite: Pick<Suite, 'loads'>,
  ctx: Pick<RoundContext, 'log' | 'signal'>,
): Promise<void> {
  const status = await server.connect();
  try {
    for (const load of suite.loads)
      await readTablesIntoPool(server, status, load.database, instance.target.name, ctx.log, ctx.signal);
  } finally {
    await status.end();
  }
}
