import {
  instanceBlocks,
  judgePairedSession,
  lookPlan,
  plannedBlocksOf,
  type VerdictSettings,
} from '../analysis/index.js';
import { testKey, testLabel, type SampleRole } from '../model/index.js';
import type { JsonObject, SampleRecord } from '../store/index.js';
import type { Suite, SuiteTest } from '../suite/index.js';
import { measureTest } from './measure.js';
import type { RoundContext } from './round.js';
import { roundOrder } from './round-order.js';
import type { SessionParts, SideServer } from './session-parts.js';
import { checkRowCounts } from './data-changing.js';
import { paceShortfall } from './preflight.js';

export type IdleServerMode = 'pause' | 'drain';

export interface PairedPlan {
  /** Minutes the session may spend measuring pairs (loading and warm-up not counted). */
  budgetMinutes: number;
  /** The most pairs any test gets. */
  maxPairs: number;
  idleServer: IdleServerMode;
  /** Drain: the longest wait for the other server to settle before a measurement (idle_settle_max_seconds). */
  idleSettleMaxSeconds: number;
  /** Drain: the window the other server must stay quiet over (idle_window_ms); default IDLE_WINDOW_MS. */
  idleWindowMs?: number;
  verdicts: VerdictSettings;
  /** false: every test gets a pair in every sweep until the budget or max_pairs (calibration, benchmarks' pools). */
  sequential?: boolean;
  /**
   * Seconds of runs a pair of server instances measures before both servers are restarted on fresh copies of their
   * loaded data (instance_seconds; instance-blocks.ts); the verdicts read it from `verdicts.instanceSeconds` too.
   */
  instanceSeconds: number;
  /** The warm-up of each restarted server, in seconds (the suite's own warm-up runs once, at the start); 0: none. */
  restartWarmupSeconds: number;
}

export type PairedStop = 'decided' | 'budget' | 'max_pairs';

export interface PairedOutcome {
  sweeps: number;
  stoppedBy: PairedStop;
  /** Minutes spent measuring pairs. */
  minutes: number;
  /** Drain: how many waits for the other server to settle gave up at idle_settle_max_seconds. */
  drainTimeouts: number;
  /** Pairs of server instances the session measured on (the first pair and each restart). */
  instances: number;
}

const ROLES: readonly SampleRole[] = ['baseline', 'candidate'];

/** One side of the session while it runs: its role and its server. */
interface Side {
  role: SampleRole;
  up: SideServer;
}

type Sides = Record<SampleRole, Side>;

/** The session while it measures: what every step reads, and the drain's time-outs so far. */
interface PairedRun {
  /** The servers up now: a restart replaces both. */
  sides: Partial<Sides>;
  parts: SessionParts;
  plan: PairedPlan;
  ctx: RoundContext;
  drainTimeouts: number;
  /** The session's tests x thread counts: the family that shares alpha, however many are still open. */
  family: number;
}

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
 * budget. What it starts and reads (servers, sysbench, /proc, the clock) comes through `parts` (session-parts.ts).
 */
export async function runPairedSession(
  suite: Suite,
  parts: SessionParts,
  plan: PairedPlan,
  ctx: RoundContext,
): Promise<PairedOutcome> {
  for (const role of ROLES) {
    ctx.signal.throwIfAborted();
    await parts.load(role);
  }
  const family = suite.tests.reduce((sum, t) => sum + t.threads.length, 0);
  const run: PairedRun = { sides: {}, parts, plan, ctx, drainTimeouts: 0, family };
  try {
    for (const role of ROLES) run.sides[role] = await startSide(role, parts, ctx);
    for (const role of ROLES) await warmUp(run, role, suite, suite.warmup.seconds);
    return await measurePairs(suite, run);
  } finally {
    await Promise.all(Object.values(run.sides).map((side) => side.up.close()));
  }
}

/**
 * Both servers stopped and started again, each on a fresh copy of its loaded data, and warmed up briefly: the pairs
 * after it are measured on new instances, so an offset one instance happened to have counts as noise between blocks,
 * not as a release effect (docs/verdicts.md).
 */
async function restartSides(run: PairedRun, suite: Suite): Promise<void> {
  const { parts, ctx } = run;
  const old = Object.values(run.sides);
  run.sides = {};
  await Promise.all(old.map((side) => side.up.close()));
  for (const role of ROLES) {
    ctx.signal.throwIfAborted();
    run.sides[role] = await startSide(role, parts, ctx);
  }
  if (run.plan.restartWarmupSeconds <= 0) return;
  for (const role of ROLES) await warmUp(run, role, suite, run.plan.restartWarmupSeconds);
}

function sideOf(run: PairedRun, role: SampleRole): Side {
  const side = run.sides[role];
  if (side === undefined) throw new Error(`the ${role} server is not up`);
  return side;
}

async function startSide(role: SampleRole, parts: SessionParts, ctx: RoundContext): Promise<Side> {
  const up = await parts.start(role);
  ctx.log.info(
    { role, target: up.targetName, serverPid: up.server.pid },
    `${role} server up: ${JSON.stringify(up.targetName)}, pid ${up.server.pid}`,
  );
  return { role, up };
}

async function warmUp(run: PairedRun, role: SampleRole, suite: Suite, seconds: number): Promise<void> {
  const { ctx } = run;
  await activate(run, role);
  const target = sideOf(run, role).up.targetName;
  ctx.log.info({ role, target, seconds }, `warm-up of ${JSON.stringify(target)}, ${seconds} s`);
  ctx.progress?.warmingUp(0);
  await run.parts.warmUp(role, seconds < suite.warmup.seconds ? seconds : undefined);
}

/**
 * Lets `role` run and keeps the other side out of its way: drain (the default) leaves it running but gives it time
 * to finish its background work (purge, page flushing) before the measurement starts; pause freezes it by SIGSTOP.
 * A drain that gives up is logged: the measurement then shares the host with the other server's background work.
 */
async function activate(run: PairedRun, role: SampleRole): Promise<void> {
  const { plan, parts, ctx } = run;
  const other = sideOf(run, role === 'baseline' ? 'candidate' : 'baseline');
  sideOf(run, role).up.server.resume();
  if (plan.idleServer === 'pause') {
    other.up.server.pause();
    return;
  }
  const waitStarted = parts.clock.now();
  const windowMs = plan.idleWindowMs ?? IDLE_WINDOW_MS;
  if (await waitUntilIdle(other.up.server.pid, plan.idleSettleMaxSeconds * 1000, windowMs, parts, ctx.signal)) return;
  run.drainTimeouts++;
  const waitedSeconds = Math.round((parts.clock.now() - waitStarted) / 100) / 10;
  ctx.log.warn(
    { role: other.role, target: other.up.targetName, waitedSeconds, measuring: role },
    `the ${other.role} server did not settle in ${waitedSeconds} s (idle_settle_max_seconds); ` +
      `measuring ${role} while it still works`,
  );
}

/**
 * A server is idle when, over the last quarter second, it used under 2% of one CPU and wrote under 64 KiB: page
 * flushing takes little CPU but competes with the measured server for the disk. After idle_settle_max_seconds (15 s
 * by default) the wait gives up: false.
 */
const IDLE_CPU_SHARE = 0.02;
const IDLE_WRITE_BYTES = 64 * 1024;
const IDLE_WINDOW_MS = 250;

async function waitUntilIdle(
  pid: number,
  maxWaitMs: number,
  windowMs: number,
  parts: SessionParts,
  signal: AbortSignal,
): Promise<boolean> {
  const { clock } = parts;
  const deadline = clock.now() + maxWaitMs;
  let before = parts.activity(pid);
  while (before !== undefined && clock.now() < deadline) {
    signal.throwIfAborted();
    await clock.sleep(windowMs);
    const after = parts.activity(pid);
    if (after === undefined) return true;
    const cpuShare = (after.cpu - before.cpu) / (windowMs / 1000);
    // The write limit is per quarter second: a shorter window allows its share of it.
    const writeLimit = (IDLE_WRITE_BYTES * windowMs) / IDLE_WINDOW_MS;
    if (cpuShare < IDLE_CPU_SHARE && after.written - before.written < writeLimit) return true;
    before = after;
  }
  // A process gone at the first reading has nothing left to settle.
  return before === undefined;
}

async function measurePairs(suite: Suite, run: PairedRun): Promise<PairedOutcome> {
  const { plan, ctx } = run;
  const { clock } = run.parts;
  let open: OpenRun[] = suite.tests
    .flatMap((test) => test.threads.map((threads) => ({ test, threads })))
    .map((r, index) => ({ index, key: testKey({ test: r.test.name, threads: r.threads }), ...r }));
  const samples: SampleRecord[] = [];
  const pairMs = new Map<string, number>();
  const started = clock.now();
  const budgetMs = plan.budgetMinutes * 60_000;
  // The first look is where the plan puts it: no look, and no "look at" line, before it.
  let nextLook = lookPlan(plannedBlocksOf(plan.verdicts), run.family, plan.verdicts.alpha).blocks[0] ?? 1;
  let instances = 1;
  let restartMs = 0;
  let closed = 0;
  let paceWarned = false;
  let firstBlockEnded = started;
  for (let sweep = 1; ; sweep++) {
    if (sweep > 1 && closed >= instances) {
      const restartStarted = clock.now();
      await restartSides(run, suite);
      instances++;
      restartMs = clock.now() - restartStarted;
    }
    // Piped, the JSON log shows each sweep as before; on a terminal the status line shows it instead (statusLine).
    ctx.log.info(
      {
        statusLine: true,
        sweep,
        open: open.length,
        instances,
        budgetLeftMinutes: Math.max(0, (budgetMs - (clock.now() - started)) / 60_000),
      },
      `sweep ${sweep}: ${open.length} test(s) open`,
    );
    for (const r of open) {
      const pairStarted = clock.now();
      // Each test's order flips from sweep to sweep, so neither side is always first; neighbours in the suite flip
      // too, so the side measured last in one pair is mostly measured first in the next, with no pause in between.
      for (const role of roundOrder(sweep + r.index)) {
        ctx.signal.throwIfAborted();
        ctx.progress?.testStarts(sweep, r.test.name, r.threads, r.test.seconds);
        await activate(run, role);
        samples.push(await measureSide(run, sideOf(run, role), r, sweep));
      }
      pairMs.set(r.key, clock.now() - pairStarted);
      // A test that changes the rows the others read breaks the design: caught after its first pair.
      if (sweep === 1) await checkRowCounts(r.test, run.parts, ctx);
    }
    const closedBefore = closed;
    closed = instanceBlocks(samples, plan.instanceSeconds).closed;
    if (closed === 1 && closedBefore === 0) firstBlockEnded = clock.now();
    if (!paceWarned && closed > closedBefore && closed >= 2)
      paceWarned = warnIfBudgetFallsShort(run, open.length, closed, { started, firstBlockEnded });
    const outcome = (stoppedBy: PairedStop): PairedOutcome => ({
      sweeps: sweep,
      stoppedBy,
      minutes: (clock.now() - started) / 60_000,
      drainTimeouts: run.drainTimeouts,
      instances,
    });
    if (plan.sequential !== false && closed >= instances && closed >= nextLook) {
      const look = lookAt(samples, open, closed, run);
      open = open.filter((r) => look.pending.has(r.key));
      nextLook = look.nextLook;
    }
    if (open.length === 0) return outcome('decided');
    if (sweep >= plan.maxPairs) return outcome('max_pairs');
    const nextSweepMs =
      open.reduce((sum, o) => sum + (pairMs.get(o.key) ?? 0), 0) + (closed >= instances ? restartMs : 0);
    if (clock.now() - started + nextSweepMs > budgetMs) return outcome('budget');
  }
}

/**
 * When a block closes: whether the session's pace says its budget ends before any look can call a drop significant,
 * said once (with the budget that would) as a warning; true once said. The pace is read from the second block on:
 * the first holds the checks of the first sweep (the row counts) and no restart, so it says little of the blocks to
 * come. Judging needs no change: the look the budget forces is taken at the blocks measured, as planned; only the
 * person learns early what the session can decide.
 */
function warnIfBudgetFallsShort(
  run: PairedRun,
  openTests: number,
  closedBlocks: number,
  times: { started: number; firstBlockEnded: number },
): boolean {
  const { plan, ctx } = run;
  if (plan.sequential === false || openTests === 0) return false;
  const now = run.parts.clock.now();
  const line = paceShortfall({
    alpha: plan.verdicts.alpha,
    family: run.family,
    plannedBlocks: plannedBlocksOf(plan.verdicts),
    budgetMinutes: plan.budgetMinutes,
    closedBlocks,
    elapsedMs: now - times.started,
    blockMs: (now - times.firstBlockEnded) / (closedBlocks - 1),
  });
  if (line === undefined) return false;
  ctx.log.warn({ blocks: closedBlocks, budgetMinutes: plan.budgetMinutes }, line);
  return true;
}

/**
 * A look when a block has closed: the tests decided so far stop getting pairs, and their share of the budget goes to
 * the open ones. Each test's verdict rests on its own pairs, and the family-wise bound on Holm's step-down over every
 * test of the session (docs/verdicts.md), so which tests stopped early cannot bend it.
 */
function lookAt(
  samples: readonly SampleRecord[],
  open: readonly OpenRun[],
  blocks: number,
  run: PairedRun,
): { pending: Set<string>; nextLook: number } {
  const judged = judgePairedSession(samples, run.plan.verdicts, false);
  const pending = new Set(judged.pending);
  // The line names what each test this look decided was found to be: an event a person wants to see as it happens.
  const wasOpen = new Set(open.map((r) => r.key));
  const found = judged.verdicts.filter((v) => wasOpen.has(testKey(v))).map((v) => `${testLabel(v)} ${v.kind}`);
  run.ctx.log.info(
    { blocks, decided: open.filter((r) => !pending.has(r.key)).map((r) => `${r.test.name}.t${r.threads}`) },
    `look at ${blocks} blocks: ${open.length - pending.size} of ${open.length} open test(s) decided` +
      (found.length > 0 ? `: ${found.join(', ')}` : ''),
  );
  // The status line counts every test of the session: "5/8 decided", whatever earlier looks closed.
  run.ctx.progress?.looked(judged.verdicts.length, judged.verdicts.length + pending.size);
  return { pending, nextLook: judged.nextBlocks };
}

async function measureSide(run: PairedRun, side: Side, r: OpenRun, sweep: number): Promise<SampleRecord> {
  const { ctx } = run;
  const { test, threads } = r;
  const sample = await measureTest(
    {
      ...side.up.reading,
      server: side.up.server,
      device: ctx.device,
      test,
      threads,
      round: sweep,
      role: side.role,
      targetName: side.up.targetName,
      signal: ctx.signal,
      log: ctx.log,
      ...(ctx.runGraceSeconds !== undefined ? { graceMs: ctx.runGraceSeconds * 1000 } : {}),
    },
    run.parts.measure,
  );
  await ctx.store.addSample(ctx.sessionId, sample);
  ctx.log.debug(
    { sweep, role: side.role, test: test.name, threads, qps: sample.qps },
    `${test.name} t${threads} ${side.role}: ${sample.qps.toFixed(0)} qps`,
  );
  // Judged in memory as the store would give it back; the store's copy is what the final verdict reads.
  return { ...sample, id: 0, sessionId: ctx.sessionId, host: {} as JsonObject, createdAt: '' };
}
