import { readFileSync } from 'node:fs';
import { judgePairedSession, type VerdictSettings } from '../analysis/index.js';
import { testKey, type SampleRole } from '../model/index.js';
import { InputError } from '../errors.js';
import {
  observerCost,
  parseMeminfo,
  processCpuSeconds,
  processWriteBytes,
  readGlobalStatus,
  type ObserverCost,
} from '../sampling/index.js';
import { expectedServerBytes, type Connection, type RunningServer } from '../server/index.js';
import type { JsonObject, SampleRecord } from '../store/index.js';
import type { Suite, SuiteTest } from '../suite/index.js';
import type { TargetInstance } from './target-instance.js';
import { measureTest } from './measure.js';
import { cacheTables, connection, loadTarget, warmUpLoads, type RoundContext } from './round.js';
import { roundOrder } from './round-order.js';

export type IdleServerMode = 'pause' | 'drain';

export interface PairedPlan {
  /** Minutes the session may spend measuring pairs (loading and warm-up not counted). */
  budgetMinutes: number;
  /** The most pairs any test gets. */
  maxPairs: number;
  idleServer: IdleServerMode;
  /** Drain: the longest wait for the other server to settle before a measurement (idle_settle_max_seconds). */
  idleSettleMaxSeconds: number;
  verdicts: VerdictSettings;
  /** false: every test gets a pair in every sweep until the budget or max_pairs (calibration, benchmarks' pools). */
  sequential?: boolean;
}

export type PairedStop = 'decided' | 'budget' | 'max_pairs';

export interface PairedOutcome {
  sweeps: number;
  stoppedBy: PairedStop;
  /** Minutes spent measuring pairs. */
  minutes: number;
}

const ROLES: readonly SampleRole[] = ['baseline', 'candidate'];

/**
 * One side of the session while it runs: its server, a connection for SHOW GLOBAL STATUS, and that reading's own cost.
 */
interface Side {
  role: SampleRole;
  instance: TargetInstance;
  server: RunningServer;
  status: Connection;
  observer: ObserverCost;
}

type Sides = Record<SampleRole, Side>;

interface OpenRun {
  /** Its place in the suite's list of runs: fixes the order of its pairs. */
  index: number;
  key: string;
  test: SuiteTest;
  threads: number;
}

/**
 * A session of the paired design: both targets are loaded, then both servers run side by side, each on its own fresh
 * copy of its loaded datadir. Every test is measured as pairs seconds apart (B C, then C B, ...), sweep after sweep
 * over every test of the suite, while the server not being measured is drained (or paused). At each look the pairs so
 * far are judged; the session ends when every test is decided, at max_pairs, or when the next sweep would overrun the
 * budget.
 */
export async function runPairedSession(
  suite: Suite,
  instances: Record<SampleRole, TargetInstance>,
  plan: PairedPlan,
  ctx: RoundContext,
): Promise<PairedOutcome> {
  // Before any loading: a small-server load takes an hour per target.
  checkMemoryFits(instances);
  for (const role of ROLES) {
    ctx.signal.throwIfAborted();
    await loadTarget(instances[role], suite, ctx);
  }
  const sides: Partial<Sides> = {};
  try {
    for (const role of ROLES) sides[role] = await startSide(role, instances[role], suite, ctx);
    const all = sides as Sides;
    for (const role of ROLES) await warmUp(all, role, suite, plan, ctx);
    return await measurePairs(suite, all, plan, ctx);
  } finally {
    await Promise.all(Object.values(sides).map((side) => closeSide(side)));
  }
}

/** Both servers stay up for the whole session, so both must fit in memory at once, with room to spare. */
function checkMemoryFits(instances: Record<SampleRole, TargetInstance>): void {
  const need = ROLES.reduce((sum, role) => sum + expectedServerBytes(instances[role].myCnfText()), 0);
  const available = parseMeminfo(readFileSync('/proc/meminfo', 'utf8')).availableBytes;
  if (need > available * 0.9) {
    const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
    throw new InputError(
      `the two servers of a paired session need about ${gib(need)} together ` +
        `(buffer pools plus overhead), and this host has ${gib(available)} ` +
        `available: ` +
        ('use a server profile with a smaller innodb_buffer_pool_size, or the ' +
          'whole-run design (--design runs), which runs one server at a time'),
    );
  }
}

async function startSide(role: SampleRole, instance: TargetInstance, suite: Suite, ctx: RoundContext): Promise<Side> {
  await instance.restoreSnapshot();
  ctx.signal.throwIfAborted();
  const server = await instance.start(ctx.log);
  try {
    if (ctx.memory === 'cached') await cacheTables(server, instance, suite, ctx);
    const status = await server.connect();
    const observer = observerCost(await readGlobalStatus(status), await readGlobalStatus(status));
    ctx.log.info({ role, target: instance.target.name, serverPid: server.pid }, `${role} server up`);
    return { role, instance, server, status, observer };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function closeSide(side: Side): Promise<void> {
  try {
    await side.status.end();
  } catch {
    // A connection to a server that died is gone already.
  }
  await side.server.stop();
}

async function warmUp(
  sides: Sides,
  role: SampleRole,
  suite: Suite,
  plan: PairedPlan,
  ctx: RoundContext,
): Promise<void> {
  await activate(sides, role, plan, ctx);
  const side = sides[role];
  ctx.log.info({ role, target: side.instance.target.name, seconds: suite.warmup.seconds }, 'warm-up');
  ctx.progress?.warmingUp(0);
  await warmUpLoads(suite, connection(side.instance), side.instance.sysbenchLog, ctx);
}

/**
 * Lets `role` run and keeps the other side out of its way: drain (the default) leaves it running but gives it time
 * to finish its background work (purge, page flushing) before the measurement starts; pause freezes it by SIGSTOP.
 */
async function activate(sides: Sides, role: SampleRole, plan: PairedPlan, ctx: RoundContext): Promise<void> {
  const other = sides[role === 'baseline' ? 'candidate' : 'baseline'];
  sides[role].server.resume();
  if (plan.idleServer === 'pause') other.server.pause();
  else await waitUntilIdle(other.server, plan.idleSettleMaxSeconds * 1000, ctx.signal);
}

/**
 * A server is idle when, over the last quarter second, it used under 2% of one CPU and wrote under 64 KiB: page
 * flushing takes little CPU but competes with the measured server for the disk. After idle_settle_max_seconds (15 s
 * by default) the wait gives up.
 */
const IDLE_CPU_SHARE = 0.02;
const IDLE_WRITE_BYTES = 64 * 1024;
const IDLE_WINDOW_MS = 250;

async function waitUntilIdle(server: RunningServer, maxWaitMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  let before = activity(server.pid);
  while (before !== undefined && Date.now() < deadline) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    const after = activity(server.pid);
    if (after === undefined) return;
    const cpuShare = (after.cpu - before.cpu) / (IDLE_WINDOW_MS / 1000);
    if (cpuShare < IDLE_CPU_SHARE && after.written - before.written < IDLE_WRITE_BYTES) return;
    before = after;
  }
}

/** CPU seconds and bytes written so far; a process whose io file cannot be read counts as writing nothing. */
function activity(pid: number): { cpu: number; written: number } | undefined {
  const cpu = processCpuSeconds(pid);
  return cpu === undefined ? undefined : { cpu, written: processWriteBytes(pid) ?? 0 };
}

async function measurePairs(suite: Suite, sides: Sides, plan: PairedPlan, ctx: RoundContext): Promise<PairedOutcome> {
  let open: OpenRun[] = suite.tests
    .flatMap((test) => test.threads.map((threads) => ({ test, threads })))
    .map((r, index) => ({ index, key: testKey({ test: r.test.name, threads: r.threads }), ...r }));
  const samples: SampleRecord[] = [];
  const pairMs = new Map<string, number>();
  const started = Date.now();
  const budgetMs = plan.budgetMinutes * 60_000;
  let nextLook = 0;
  for (let sweep = 1; ; sweep++) {
    ctx.log.info(
      { sweep, open: open.length, budgetLeftMinutes: Math.max(0, (budgetMs - (Date.now() - started)) / 60_000) },
      `sweep ${sweep}: ${open.length} test(s) open`,
    );
    for (const run of open) {
      const pairStarted = Date.now();
      // Each test's order flips from sweep to sweep, so neither side is always first; neighbours in the suite flip
      // too, so the side measured last in one pair is mostly measured first in the next, with no pause in between.
      for (const role of roundOrder(sweep + run.index)) {
        ctx.signal.throwIfAborted();
        ctx.progress?.testStarts(sweep, run.test.name, run.threads, run.test.seconds);
        await activate(sides, role, plan, ctx);
        samples.push(await measureSide(sides[role], run, sweep, ctx));
      }
      pairMs.set(run.key, Date.now() - pairStarted);
    }
    const outcome = (stoppedBy: PairedStop): PairedOutcome => ({
      sweeps: sweep,
      stoppedBy,
      minutes: (Date.now() - started) / 60_000,
    });
    if (plan.sequential !== false && sweep >= nextLook) {
      // The whole family stays measured while any test is open: the max-T of every look is then taken over every
      // test, so which tests were decided early cannot bend the family-wise bound (docs/verdicts.md).
      const judged = judgePairedSession(samples, plan.verdicts, false);
      const undecided = new Set(judged.pending);
      ctx.log.info(
        { sweep, decided: open.filter((r) => !undecided.has(r.key)).map((r) => `${r.test.name}.t${r.threads}`) },
        `look at ${sweep} pairs: ${open.length - undecided.size} of ${open.length} test(s) decided`,
      );
      if (undecided.size === 0) open = [];
      nextLook = judged.nextPairs;
    }
    if (open.length === 0) return outcome('decided');
    if (sweep >= plan.maxPairs) return outcome('max_pairs');
    const nextSweepMs = open.reduce((sum, r) => sum + (pairMs.get(r.key) ?? 0), 0);
    if (Date.now() - started + nextSweepMs > budgetMs) return outcome('budget');
  }
}

async function measureSide(side: Side, run: OpenRun, sweep: number, ctx: RoundContext): Promise<SampleRecord> {
  const { test, threads } = run;
  const sample = await measureTest({
    status: side.status,
    observer: side.observer,
    conn: connection(side.instance),
    server: side.server,
    device: ctx.device,
    test,
    threads,
    round: sweep,
    role: side.role,
    targetName: side.instance.target.name,
    sysbenchLog: side.instance.sysbenchLog,
    signal: ctx.signal,
    log: ctx.log,
  });
  await ctx.store.addSample(ctx.sessionId, sample);
  ctx.log.debug(
    { sweep, role: side.role, test: test.name, threads, qps: sample.qps },
    `${test.name} t${threads} ${side.role}: ${sample.qps.toFixed(0)} qps`,
  );
  // Judged in memory as the store would give it back; the store's copy is what the final verdict reads.
  return { ...sample, id: 0, sessionId: ctx.sessionId, host: {} as JsonObject, createdAt: '' };
}
