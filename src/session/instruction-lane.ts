import {
  COLLECT_FUNCTION,
  findInstructionCounter,
  PERF_EVENT,
  perQueryFunctions,
  type InstructionCounter,
} from '../instructions/index.js';
import type { InstructionVerdictSettings } from '../analysis/index.js';
import type { Logger } from '../log/index.js';
import { sampleRoles, type InstructionCounterSetting, type SampleRole } from '../model/index.js';
import type { InstructionLaneInput, InstructionStore } from '../store/index.js';
import type { Suite, SuiteTest } from '../suite/index.js';
import { countOnce, type CountRequest, type CountResult } from './instruction-count.js';
import { binaryIdentity, laneConditions, type LaneBasis } from './instruction-conditions.js';
import type { SessionProgress } from './session-progress.js';
import type { TargetInstance } from './target-instance.js';

/** What the instructions lane reads of the config (instruction_counter, instructions_*). */
export interface InstructionLaneSettings {
  counter: InstructionCounterSetting;
  /** Counted runs per side and test. */
  repeats: number;
  /** Measured events per run. */
  events: number;
  /** Warm-up events before them, on the same server (0: none). */
  warmupEvents: number;
  /** instructions_threshold and instructions_test_thresholds: what the lane's verdicts are judged by. */
  verdicts: InstructionVerdictSettings;
}

/** The lane's counter, found before the session measures anything (the pre-flight line), or why there is none. */
export type LanePlan =
  | {
      counter: InstructionCounter;
      tests: SuiteTest[];
      settings: InstructionLaneSettings;
      /** The sides counted: both in a comparison; the candidate alone in a bisection's step. */
      sides: readonly SampleRole[];
    }
  | { counter: undefined; reason: string };

export interface LaneContext {
  store: Pick<InstructionStore, 'addInstructionRun' | 'addInstructionFunctions' | 'recordInstructionLane'>;
  log: Logger;
  signal: AbortSignal;
  sessionId: number;
  /** The host's CPU model (its fingerprint's): memcpy and the like are picked per CPU. */
  cpuModel: string;
  /** One counted run (countOnce: a real server under the counter); unit tests give a fake. */
  count?: (request: CountRequest) => Promise<CountResult>;
  /** The session's progress (the status line): told as each counted run starts. */
  progress?: Pick<SessionProgress, 'counting'>;
}

/** The tests the lane counts: those run at 1 client thread (under valgrind threads run one at a time). */
export function laneTests(suite: Pick<Suite, 'tests'>): SuiteTest[] {
  return suite.tests.filter((t) => t.threads.includes(1));
}

/**
 * The lane's plan for a session: its 1-thread tests and the counter the setting gives on this host. Nothing to count
 * or no counter is a reason, which the session logs as one line before the QPS lane goes on alone.
 */
export async function planInstructionLane(
  suite: Suite,
  settings: InstructionLaneSettings,
  opts: { log: Logger; signal: AbortSignal },
): Promise<LanePlan> {
  if (settings.counter === 'off') return { counter: undefined, reason: 'instruction_counter is off' };
  const tests = laneTests(suite);
  if (tests.length === 0) return { counter: undefined, reason: `suite ${suite.name} has no test at 1 client thread` };
  const choice = await findInstructionCounter(settings.counter, opts);
  if (choice.counter === undefined) return { counter: undefined, reason: choice.reason };
  return { counter: choice.counter, tests, settings, sides: sampleRoles };
}

/**
 * Seconds a counted run takes on this project's 2-core VM while shared: the server's start and stop, and per event
 * (bench:instructions: 18 to 38 s a run for most quick-suite tests; a test of large queries takes longer, 120 to
 * 140 s for read-only and points-covered-si, which the events alone cannot foresee).
 */
const RUN_COST: Record<InstructionCounter['kind'], { fixed: number; perEvent: number }> = {
  callgrind: { fixed: 15, perEvent: 0.006 },
  perf: { fixed: 5, perEvent: 0.0002 },
};

/** The lane's wall time, in minutes, for the pre-flight line. */
export function laneMinutes(plan: Extract<LanePlan, { counter: InstructionCounter }>): number {
  const cost = RUN_COST[plan.counter.kind];
  const runs = plan.tests.length * plan.sides.length * plan.settings.repeats;
  return (runs * (cost.fixed + (plan.settings.events + plan.settings.warmupEvents) * cost.perEvent)) / 60;
}

/** The pre-flight's line about the lane: what it will count and what that costs, or why it will not run. */
export function laneAnnouncement(plan: LanePlan): string {
  if (plan.counter === undefined) return `instructions lane skipped: ${plan.reason}; the QPS lane goes on`;
  const runs = plan.tests.length * plan.sides.length * plan.settings.repeats;
  return (
    `instructions lane: ${plan.tests.length} tests x ${plan.sides.length} side${plan.sides.length === 1 ? '' : 's'} ` +
    `x ${plan.settings.repeats} repeats = ${runs} runs ` +
    `under ${plan.counter.kind} (${plan.counter.version}), about ${Math.ceil(laneMinutes(plan))} min after the pairs`
  );
}

/**
 * The lane, after the QPS pairs and on the same loaded snapshots: per 1-thread test, repeat after repeat, one counted
 * run on each side (instruction-count.ts); every run stored as it is counted, each side's function table of its
 * median repeat once the test is done. A failure (a server that will not start under valgrind, a run that counted
 * nothing) ends the lane with its reason; the session and its QPS verdicts go on. An abort goes on up.
 */
export async function runInstructionLane(
  suite: Suite,
  instances: Record<SampleRole, TargetInstance>,
  plan: LanePlan,
  ctx: LaneContext,
): Promise<InstructionLaneInput> {
  const started = Date.now();
  const elapsed = (): number => (Date.now() - started) / 1000;
  const stored = { runs: 0, seconds: 0 };
  const ended = async (outcome: InstructionLaneInput): Promise<InstructionLaneInput> => {
    await ctx.store.recordInstructionLane(ctx.sessionId, outcome);
    return outcome;
  };
  if (plan.counter === undefined) return ended({ state: 'skipped', reason: plan.reason, runs: 0, seconds: 0 });
  const counted = { counter: plan.counter.kind, counterVersion: plan.counter.version };
  const basis: LaneBasis = {
    counter: plan.counter,
    collect: plan.counter.kind === 'callgrind' ? COLLECT_FUNCTION : PERF_EVENT,
    events: plan.settings.events,
    warmupEvents: plan.settings.warmupEvents,
    cpuModel: ctx.cpuModel,
  };
  try {
    for (const [index, test] of plan.tests.entries())
      await countTest(suite, test, index, instances, plan, basis, ctx, stored);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const reason = oneLine(err);
    ctx.log.warn({ reason, runs: stored.runs }, `instructions lane failed: ${reason}; the QPS lane's verdicts stand`);
    return ended({ state: 'failed', reason, runs: stored.runs, seconds: elapsed(), ...counted });
  }
  ctx.log.info({ runs: stored.runs, seconds: Math.round(elapsed()) }, 'instructions lane done');
  return ended({ state: 'done', runs: stored.runs, seconds: elapsed(), ...counted });
}

/** Every repeat of one test on both sides; `stored` counts the runs stored and their seconds. */
async function countTest(
  suite: Suite,
  test: SuiteTest,
  index: number,
  instances: Record<SampleRole, TargetInstance>,
  plan: Extract<LanePlan, { counter: InstructionCounter }>,
  basis: LaneBasis,
  ctx: LaneContext,
  stored: { runs: number; seconds: number },
): Promise<void> {
  const sides = await Promise.all(
    plan.sides.map(async (role) => ({
      role,
      instance: instances[role],
      buildKey: await binaryIdentity(instances[role].target),
      ...(await laneConditions(basis, suite, test, instances[role].target)),
      results: [] as CountResult[],
    })),
  );
  for (let repeat = 1; repeat <= plan.settings.repeats; repeat++) {
    for (const side of sides) {
      ctx.signal.throwIfAborted();
      tellCounting(plan, stored, `${test.name} ${side.role}`, ctx);
      const result = await (ctx.count ?? countOnce)({
        instance: side.instance,
        test,
        counter: plan.counter,
        events: plan.settings.events,
        warmupEvents: plan.settings.warmupEvents,
        label: `${index + 1}-${repeat}`,
        signal: ctx.signal,
        log: ctx.log,
      });
      await ctx.store.addInstructionRun(ctx.sessionId, {
        role: side.role,
        target: side.instance.target.name,
        buildKey: side.buildKey,
        test: test.name,
        threads: 1,
        repeat,
        instructions: result.instructions,
        queries: result.queries,
        conditions: side.conditions,
        conditionKey: side.conditionKey,
        seconds: result.seconds,
      });
      stored.runs += 1;
      stored.seconds += result.seconds;
      side.results.push(result);
      ctx.log.info(
        { test: test.name, role: side.role, repeat, perQuery: Math.round(result.instructions / result.queries) },
        `${test.name} ${side.role} ${repeat}/${plan.settings.repeats}: ` +
          `${Math.round(result.instructions / result.queries)} instructions per query`,
      );
    }
  }
  for (const side of sides) await storeFunctions(side.role, test, side.results, ctx);
}

/** The status line's lane step: the run about to start, and the runs left at the pace so far (the plan's before). */
function tellCounting(
  plan: Extract<LanePlan, { counter: InstructionCounter }>,
  stored: { runs: number; seconds: number },
  what: string,
  ctx: LaneContext,
): void {
  const runs = plan.tests.length * plan.sides.length * plan.settings.repeats;
  const pace = stored.runs > 0 ? stored.seconds / stored.runs : (laneMinutes(plan) * 60) / runs;
  ctx.progress?.counting(stored.runs + 1, runs, what, (runs - stored.runs) * pace);
}

/** The function table of the side's median repeat (by instructions), per query. */
async function storeFunctions(
  role: SampleRole,
  test: SuiteTest,
  results: readonly CountResult[],
  ctx: LaneContext,
): Promise<void> {
  const sorted = [...results].sort((a, b) => a.instructions - b.instructions);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median?.functions === undefined) return;
  await ctx.store.addInstructionFunctions(ctx.sessionId, {
    role,
    test: test.name,
    threads: 1,
    functions: perQueryFunctions(median.functions, median.instructions, median.queries),
  });
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.trim();
}
