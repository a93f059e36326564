import { pairsAtLook, roundsForAlpha, smallestPValue, unreachableAlpha } from '../analysis/index.js';
import { InputError } from '../errors.js';
import { testLabel, type SessionDesignName } from '../model/index.js';
import type { Logger } from '../log/index.js';
import type { CalibrationStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import { calibratedDrops, calibrationOrWarn, levelReach, noisyLevelLine, percentRange } from './host-calibration.js';

/**
 * What one measured run costs on top of its test's seconds: the drain wait for the other server (at least one quarter
 * second window), starting sysbench and its report, the status and host readings around it, and storing the sample.
 * Measured on this project's 2-core VM: a pair of the quick suite's 1-second runs took 2.6 to 2.9 s (npm run demo).
 * Taking the low end keeps the refusal on the safe side: it never turns away a budget that would reach the first look.
 */
export const RUN_OVERHEAD_SECONDS = 0.4;

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
  /** Pairs the first look needs. */
  firstLook: number;
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
export function planSweeps(suite: Pick<Suite, 'name' | 'tests'>, budgetMinutes: number, maxPairs: number): SweepPlan {
  const seconds = sweepSeconds(suite.tests);
  // The small epsilon keeps a budget of exactly k sweeps at k, whatever the float rounding of minutes x 60.
  const budgetSweeps = Math.max(1, Math.floor((budgetMinutes * 60) / seconds + 1e-9));
  return {
    suite: suite.name,
    // A suite with levels lists a test once per level: counted once here, its levels in the runs.
    tests: new Set(suite.tests.map((t) => t.name)).size,
    runs: suite.tests.reduce((sum, t) => sum + t.threads.length, 0),
    sweepSeconds: seconds,
    budgetMinutes,
    maxPairs,
    budgetSweeps,
    sweeps: Math.min(maxPairs, budgetSweeps),
    firstLook: pairsAtLook(1),
  };
}

/** Whole minutes of budget that pay for `pairs` sweeps. */
export function minutesForSweeps(plan: Pick<SweepPlan, 'sweepSeconds'>, pairs: number): number {
  return Math.ceil((pairs * plan.sweepSeconds) / 60 - 1e-9);
}

/** Where the settings came from, so the fix names what to change: the command's flags, or the config file. */
export type SettingSource = 'flags' | 'config';

/**
 * The one line that refuses a paired session whose budget or max_pairs stops before the first look; undefined when it
 * can reach it.
 */
export function budgetRefusal(plan: SweepPlan, source: SettingSource = 'flags'): string | undefined {
  const [budget, pairs] =
    source === 'flags' ? ['--budget (or budget_minutes)', '--pairs (or max_pairs)'] : ['budget_minutes', 'max_pairs'];
  const fixes: string[] = [];
  if (plan.budgetSweeps < plan.firstLook)
    fixes.push(
      `raise ${budget} to ${minutesForSweeps(plan, plan.firstLook)} or more, ` +
        `or shorten the tests${source === 'flags' ? ' (--seconds)' : ''}`,
    );
  if (plan.maxPairs < plan.firstLook) fixes.push(`raise ${pairs} to ${plan.firstLook} or more`);
  if (fixes.length === 0) return undefined;
  const reach =
    plan.budgetSweeps < plan.firstLook
      ? `budget ${formatMinutes(plan.budgetMinutes)} min pays for ` +
        `${sweepsText(plan.budgetSweeps)} of ${suiteText(plan)}`
      : `max_pairs ${plan.maxPairs} stops ${suiteText(plan)} at ${plan.maxPairs} pairs`;
  return `${reach}; the first look needs ${plan.firstLook} pairs: ${fixes.join('; ')}`;
}

/** What a session prints before its first pair: how far its budget reaches. */
export function sweepPlanText(plan: SweepPlan): string {
  const capped = plan.sweeps < plan.budgetSweeps ? `, capped at ${plan.maxPairs} pairs per test by max_pairs` : '';
  return (
    `budget ${formatMinutes(plan.budgetMinutes)} min pays for about ` +
    `${sweepsText(plan.budgetSweeps)} of ${suiteText(plan)}${capped}; the ` +
    `first look is at ${plan.firstLook} pairs`
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
  const plan = planSweeps(request.suite, request.budgetMinutes, request.maxPairs);
  // Budget first: a budget too short for the first look is the likelier mistake, and its fix is the one to show.
  const refusal = request.sequential
    ? (budgetRefusal(plan) ?? unreachableAlpha(request.alpha, request.maxPairs))
    : undefined;
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
  const drops = record === undefined ? undefined : calibratedDrops(record, plan.sweeps, deps.alpha, plan.maxPairs);
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
      firstLook: plan.firstLook,
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
  return `suite ${plan.suite} (${runs}, ${Math.round(plan.sweepSeconds)} s each sweep)`;
}

function sweepsText(n: number): string {
  return `${n} sweep${n === 1 ? '' : 's'}`;
}

function formatMinutes(minutes: number): string {
  return Number.isInteger(minutes) ? String(minutes) : String(Number(minutes.toFixed(2)));
}

function formatP(p: number): string {
  return String(Number(p.toPrecision(3)));
}
