import {
  blocksToReject,
  canRejectWithin,
  firstReachableBlocks,
  lookPlan,
  lookReach,
  roundsForAlpha,
  smallestPValue,
} from '../analysis/index.js';
import { InputError } from '../errors.js';
import { testLabel, type SessionDesignName } from '../model/index.js';
import type { Logger } from '../log/index.js';
import type { CalibrationStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import { calibratedDrops, calibrationOrWarn, levelReach, noisyLevelLine, percentRange } from './host-calibration.js';
import { suiteDataChangerRefusal } from './data-changing.js';

/**
 * What one measured run costs on top of its test's seconds: the drain wait for the other server (at least one quarter
 * second window), starting sysbench and its report, the status and host readings around it, and storing the sample.
 * Measured on this project's 2-core VM: a pair of the quick suite's 1-second runs took 2.6 to 2.9 s (npm run demo).
 * Taking the low end keeps the refusal on the safe side: it never turns away a budget that would reach the first look.
 */
export const RUN_OVERHEAD_SECONDS = 0.4;

/**
 * What a restart of both servers costs between blocks: each stopped, its datadir copied afresh from the loaded
 * snapshot, started, and warmed up for RESTART_WARMUP_SECONDS. Measured on this project's VM with the quick suite:
 * about 2.6 s to copy and start a server and 1 s to stop one, so about 6 s for the pair with their warm-ups.
 */
export const RESTART_SECONDS = 6;
/** A restarted server's warm-up: its buffer pool is empty, the OS cache still holds the copied data. */
export const RESTART_WARMUP_SECONDS = 1;

/** How far a paired session's budget reaches, worked out from the suite alone, before anything starts. */
export interface SweepPlan {
  suite: string;
  /** Tests of the suite, and runs of a sweep (a test runs once per thread count). */
  tests: number;
  runs: number;
  /** One sweep: two measured runs (one per server) of every run of the suite, with their overhead. */
  sweepSeconds: number;
  budgetMinutes: number;
  maxPairs: number;
  /** Sweeps the budget pays for, before max_pairs. */
  budgetSweeps: number;
  /** Pairs every test gets at most: the budget's sweeps, capped by max_pairs. */
  sweeps: number;
  /** Tests x thread counts: the family that shares alpha. */
  family: number;
  alpha: number;
  /** Seconds of runs (both sides) one pair of instances measures before both servers are restarted. */
  instanceSeconds: number;
  /** Sweeps of every test one pair of instances measures (while every test is open). */
  sweepsPerBlock: number;
  /** Blocks (pairs of instances) the budget pays for, with a restart between each two. */
  budgetBlocks: number;
  /** The budget's blocks, capped by max_pairs: the looks are planned on them. */
  plannedBlocks: number;
  /** The blocks of each look (look-plan.ts). */
  looks: number[];
  /** Blocks a verdict needs at the least: where a single look can first call a drop significant. */
  blocksNeeded: number;
}

/** How the blocks of a session are cut and judged: its alpha and the seconds of runs per pair of instances. */
export interface BlockSettings {
  alpha: number;
  instanceSeconds: number;
}

/** A session whose settings cannot reach a verdict, refused before any server starts; the message holds the fix. */
export class PreflightError extends InputError {}

/** Every sweep measures every test of the suite (the whole family is kept at every look), each on both servers. */
export function sweepSeconds(tests: Suite['tests']): number {
  return tests.reduce((sum, t) => sum + t.threads.length * 2 * (t.seconds + RUN_OVERHEAD_SECONDS), 0);
}

/**
 * The sweeps a budget pays for, as the session loop spends it: the first sweep always runs, and each next one only
 * when it still ends within the budget.
 */
export function planSweeps(
  suite: Pick<Suite, 'name' | 'tests'>,
  budgetMinutes: number,
  maxPairs: number,
  blocks: BlockSettings,
): SweepPlan {
  const seconds = sweepSeconds(suite.tests);
  const runSeconds = suite.tests.reduce((sum, t) => sum + t.threads.length * 2 * t.seconds, 0);
  const sweepsPerBlock = Math.max(1, Math.ceil(blocks.instanceSeconds / Math.max(runSeconds, 1e-9) - 1e-9));
  const blockSeconds = sweepsPerBlock * seconds;
  // The small epsilon keeps a budget of exactly k sweeps at k, whatever the float rounding of minutes x 60.
  const budgetSweeps = Math.max(1, Math.floor((budgetMinutes * 60) / seconds + 1e-9));
  // Blocks with a restart between each two: b blocks cost b x blockSeconds + (b - 1) x RESTART_SECONDS.
  const budgetBlocks = Math.max(
    1,
    Math.floor((budgetMinutes * 60 + RESTART_SECONDS) / (blockSeconds + RESTART_SECONDS) + 1e-9),
  );
  const plannedBlocks = Math.min(budgetBlocks, Math.ceil(maxPairs / sweepsPerBlock));
  const family = suite.tests.reduce((sum, t) => sum + t.threads.length, 0);
  return {
    suite: suite.name,
    // A suite with levels lists a test once per level: counted once here, its levels in the runs.
    tests: new Set(suite.tests.map((t) => t.name)).size,
    runs: family,
    sweepSeconds: seconds,
    budgetMinutes,
    maxPairs,
    budgetSweeps,
    sweeps: Math.min(maxPairs, budgetBlocks * sweepsPerBlock),
    family,
    alpha: blocks.alpha,
    instanceSeconds: blocks.instanceSeconds,
    sweepsPerBlock,
    budgetBlocks,
    plannedBlocks,
    looks: lookPlan(plannedBlocks, family, blocks.alpha).blocks,
    blocksNeeded: firstReachableBlocks(blocks.alpha, 1, family),
  };
}

/** Whole minutes of budget that pay for `blocks` blocks, with their restarts. */
export function minutesForBlocks(plan: Pick<SweepPlan, 'sweepSeconds' | 'sweepsPerBlock'>, blocks: number): number {
  return Math.ceil(
    (blocks * (plan.sweepsPerBlock * plan.sweepSeconds + RESTART_SECONDS) - RESTART_SECONDS) / 60 - 1e-9,
  );
}

/** Where the settings came from, so the fix names what to change: the command's flags, or the config file. */
export type SettingSource = 'flags' | 'config';

/**
 * The one line that refuses a paired session whose budget or max_pairs stops before any look can call a drop
 * significant; undefined when one can.
 */
export function budgetRefusal(plan: SweepPlan, source: SettingSource = 'flags'): string | undefined {
  if (lookReach(plan.alpha, plan.family, plan.plannedBlocks).some((l) => l.canReject)) return undefined;
  const [budget, pairs] =
    source === 'flags' ? ['--budget (or budget_minutes)', '--pairs (or max_pairs)'] : ['budget_minutes', 'max_pairs'];
  const needed = plan.blocksNeeded;
  const byPairs = Math.ceil(plan.maxPairs / plan.sweepsPerBlock) < needed;
  const fixes: string[] = [];
  if (!byPairs || plan.budgetBlocks < needed)
    fixes.push(
      `raise ${budget} to ${minutesForBlocks(plan, needed)} or more, ` +
        `or shorten the tests${source === 'flags' ? ' (--seconds)' : ''}`,
    );
  if (byPairs) fixes.push(`raise ${pairs} to ${needed * plan.sweepsPerBlock} or more`);
  // A short suite's sweep measures under instance_seconds: fewer sweeps per pair of instances make more blocks.
  if (plan.sweepsPerBlock > 1)
    fixes.push(
      `or lower instance_seconds (${plan.instanceSeconds} s: new server instances every ` +
        `${plan.sweepsPerBlock} sweeps of this suite; 0: every sweep)`,
    );
  const reach = byPairs
    ? `max_pairs ${plan.maxPairs} stops ${suiteText(plan)} at ${plan.maxPairs} pairs`
    : `budget ${formatMinutes(plan.budgetMinutes)} min pays for ` +
      `${blocksText(plan.plannedBlocks)} of ${suiteText(plan)}`;
  return (
    `${reach}; a verdict needs ${needed} blocks (${plan.family} test(s) sharing alpha ${plan.alpha}): ` +
    fixes.join('; ')
  );
}

/** A paired session's pace so far: what paceShortfall reads each time a block closes. */
export interface PaceReading {
  alpha: number;
  /** Tests x thread counts: the family that shares alpha. */
  family: number;
  plannedBlocks: number;
  budgetMinutes: number;
  closedBlocks: number;
  /** Milliseconds of measuring (and restarts) since the first pair. */
  elapsedMs: number;
  /** Milliseconds a block has taken, with the restart before it, as measured so far. */
  blockMs: number;
}

/**
 * Once the session's own pace is known: the line that says its budget will end before any look can call a drop
 * significant, with about the budget that would reach one; undefined while one still can. The plan made before the
 * first pair counts each run's overhead at the low end (RUN_OVERHEAD_SECONDS), so a budget near the edge can pay for
 * a block less than planned; the session can then still find a test ok, but one that dropped past its threshold can
 * only end "unstable", and the person should learn that while it runs, not from the verdicts.
 */
export function paceShortfall(r: PaceReading): string | undefined {
  if (r.closedBlocks < 1 || r.blockMs <= 0) return undefined;
  // The block the budget cuts short still counts at the last look (sequential.ts), so a started block counts here:
  // the line errs on silence.
  const leftMs = r.budgetMinutes * 60_000 - r.elapsedMs;
  const endBlocks = r.closedBlocks + Math.max(0, Math.ceil(leftMs / r.blockMs - 1e-9));
  if (canRejectWithin(r.alpha, r.family, r.plannedBlocks, endBlocks)) return undefined;
  // A plan none of whose looks can reject was refused before the session started (budgetRefusal).
  const needed = blocksToReject(r.alpha, r.family, r.plannedBlocks);
  if (needed === undefined) return undefined;
  const minutes = Math.ceil((r.elapsedMs + (needed - r.closedBlocks) * r.blockMs) / 60_000 - 1e-9);
  return (
    `at this pace (${(r.blockMs / 1000).toFixed(1)} s a block) the budget of ${formatMinutes(r.budgetMinutes)} ` +
    `min ends after about ${blocksText(endBlocks)}, before any look can call a drop significant (that needs ` +
    `${blocksText(needed)}): a test can still be found ok, but one that dropped past its threshold can only end ` +
    `"unstable"; raise budget_minutes (or --budget) to about ${minutes} or more`
  );
}

/** What a session prints before its first pair: how far its budget reaches. */
export function sweepPlanText(plan: SweepPlan): string {
  const capped = plan.sweeps >= plan.maxPairs ? `, capped at ${plan.maxPairs} pairs per test by max_pairs` : '';
  return (
    `budget ${formatMinutes(plan.budgetMinutes)} min pays for about ` +
    `${blocksText(plan.plannedBlocks)} of ${suiteText(plan)}${capped}; ` +
    (plan.looks.length === 1
      ? `one look, at ${blocksText(plan.looks[0]!)}`
      : `the looks are at ${plan.looks.join(', ')} blocks`)
  );
}

/** What a session's settings are checked on before anything starts. */
export interface PreflightRequest {
  suite: Pick<Suite, 'name' | 'tests'>;
  design: SessionDesignName;
  rounds: number;
  alpha: number;
  budgetMinutes: number;
  maxPairs: number;
  /** false: a session that judges nothing while it runs (calibration, benchmark pools) needs no first look. */
  sequential: boolean;
  instanceSeconds: number;
}

/**
 * Refuses, with one line that names the fix, a session whose settings can never reach a verdict: a paired budget or
 * max_pairs that stops before the first look, or whole-run rounds whose smallest p-value is above alpha. Returns how
 * far a paired session's budget reaches.
 */
export function preflight(request: PreflightRequest): SweepPlan | undefined {
  if (request.design === 'runs') {
    const refusal = roundsRefusal(request.rounds, request.alpha);
    if (refusal !== undefined) throw new PreflightError(refusal);
    return undefined;
  }
  // A test that changes the rows the others read breaks the design whatever the budget: said first.
  const changer = suiteDataChangerRefusal(request.suite);
  if (changer !== undefined) throw new PreflightError(changer);
  const plan = planSweeps(request.suite, request.budgetMinutes, request.maxPairs, request);
  const refusal = request.sequential ? budgetRefusal(plan) : undefined;
  if (refusal !== undefined) throw new PreflightError(refusal);
  return plan;
}

export interface AnnounceDeps {
  stateDir: string;
  alpha: number;
  store: CalibrationStore;
  /** The line is logged at info: on a terminal, compare and check show it as they start. */
  log: Logger;
}

/**
 * Before the first pair: the sweeps the budget pays for and, where this host was calibrated for the suite, the drop
 * that many pairs can be expected to catch per test (warned once when it was not).
 */
export async function announceSweeps(plan: SweepPlan, deps: AnnounceDeps): Promise<void> {
  const record = await calibrationOrWarn(deps, plan.suite);
  const drops =
    record === undefined
      ? undefined
      : calibratedDrops(record, plan.sweeps, deps.alpha, plan.maxPairs, plan.sweepsPerBlock);
  const expected =
    drops === undefined
      ? ''
      : `; by this host's calibration, a detectable drop of ` +
        `${percentRange(drops.map((d) => d.detectableDrop))} per test at ` +
        `${plan.sweeps} pairs`;
  const levels = drops === undefined ? [] : levelReach(drops);
  // A suite of levels: each level's reach on its own, since the noise of a pair grows with the client threads.
  const perLevel =
    levels.length > 1 ? ` (${levels.map((l) => `t${l.threads}: ${percentRange(l.drops)}`).join(', ')})` : '';
  const line = `${sweepPlanText(plan)}${expected}${perLevel}`;
  const detectablePercent =
    drops === undefined
      ? undefined
      : Object.fromEntries(drops.map((d) => [`${testLabel(d)}`, Number((d.detectableDrop * 100).toFixed(1))]));
  deps.log.info(
    {
      suite: plan.suite,
      budgetMinutes: plan.budgetMinutes,
      sweeps: plan.sweeps,
      sweepSeconds: Number(plan.sweepSeconds.toFixed(1)),
      looks: plan.looks,
      ...(record !== undefined ? { calibratedAt: record.createdAt, detectablePercent } : {}),
    },
    line,
  );
  for (const level of levels.filter((l) => l.noisy))
    deps.log.warn({ suite: plan.suite, threads: level.threads }, noisyLevelLine(level, `${plan.sweeps} pairs`));
}

/** The one line that refuses a whole-run session whose rounds can never reach alpha; undefined when they can. */
export function roundsRefusal(rounds: number, alpha: number, source: SettingSource = 'flags'): string | undefined {
  const smallest = smallestPValue(rounds);
  if (smallest <= alpha) return undefined;
  const needed = roundsForAlpha(alpha);
  const [flag, paired] = source === 'flags' ? ['--rounds', 'the paired design'] : ['rounds', 'design: paired'];
  const fix =
    needed === undefined
      ? `no number of rounds reaches it: raise alpha to ${formatP(smallestPValue(100))} or more, or use ${paired}`
      : `use ${flag} ${needed} or more, or ${paired}`;
  return (
    `${flag} ${rounds}: the smallest p-value of ${rounds} ` +
    `round${rounds === 1 ? '' : 's'} is 1/${Math.round(1 / smallest)} ` +
    `(${formatP(smallest)}), above alpha ${alpha}; ${fix}`
  );
}

function suiteText(plan: SweepPlan): string {
  const runs =
    plan.runs === plan.tests
      ? `${plan.tests} test${plan.tests === 1 ? '' : 's'}`
      : `${plan.tests} tests, ${plan.runs} runs with their thread counts`;
  const every = plan.sweepsPerBlock === 1 ? 'every sweep' : `every ${plan.sweepsPerBlock} sweeps`;
  return `suite ${plan.suite} (${runs}, ${Math.round(plan.sweepSeconds)} s each sweep, new server instances ${every})`;
}

function blocksText(n: number): string {
  return `${n} block${n === 1 ? '' : 's'}`;
}

function formatMinutes(minutes: number): string {
  return Number.isInteger(minutes) ? String(minutes) : String(Number(minutes.toFixed(2)));
}

function formatP(p: number): string {
  return String(Number(p.toPrecision(3)));
}
