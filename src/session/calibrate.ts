import {
  CALIBRATION_DROP,
  calibrateTest,
  calibrationInputs,
  expectationAtBudget,
  median,
  type BudgetExpectation,
  type CalibrationSettings,
} from '../analysis/index.js';
import type { CalibrationFigure } from '../model/index.js';
import type { Config } from '../config/index.js';
import { InputError } from '../errors.js';
import type { CalibrationRecord, CalibrationStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import { runComparison, type CompareDeps } from './compare.js';
import { planSweeps, RESTART_SECONDS } from './preflight.js';
import type { CompareSettings } from './settings.js';

export interface CalibrateRequest {
  /** The target run against itself (the CLI takes calibrationTarget(config) when none is named). */
  target: string;
  suite: Suite;
  /** Minutes of pairs for the calibration itself; default the suite's budget. */
  budgetMinutes?: number;
}

export interface CalibrationOutcome {
  record: CalibrationRecord;
  figures: CalibrationFigure[];
  /** What a release's session can be expected to detect at the budget a release gets (releaseBudgetMinutes). */
  expectation: BudgetExpectation;
  /** Minutes the calibration spent measuring pairs, and its sweeps. */
  minutes: number;
  sweeps: number;
}

/** What is stored with a calibration (CalibrationRecord.settings): enough to recompute its figures. */
export interface StoredCalibrationSettings {
  alpha: number;
  family: number;
  drop: number;
  /** Minutes of pairs the calibration was given. */
  budgetMinutes: number;
  /** The budget of a release's session when the calibration ran (budget_minutes, else the suite's). */
  releaseBudgetMinutes: number;
  maxPairs: number;
  idleStatesHeld: boolean;
}

export class NoCalibrationTargetError extends InputError {
  constructor() {
    super(
      'no target to calibrate: the config has no calibrate_target and no ' +
        'targets; add one under targets: (e.g. `targets: { local: { kind: ' +
        'installed, flavor: mariadb, basedir: /usr, server_profile: relaxed } ' +
        '}`, see config/quickstart.yaml) or give --target NAME',
    );
  }
}

/** Sweeps a calibration measures on each pair of server instances: enough pairs in a block to see its offset. */
export const CALIBRATION_SWEEPS_PER_INSTANCE = 4;

/** Seconds of runs in one sweep of every test, both sides: what instance_seconds counts. */
function runSecondsOfSweep(suite: Suite): number {
  return suite.tests.reduce((sum, t) => sum + t.threads.length * 2 * t.seconds, 0);
}

/** The config's calibrate_target, else the first of its targets. */
export function calibrationTarget(config: Config): string {
  const target = config.calibrate_target ?? Object.keys(config.targets)[0];
  if (target === undefined) throw new NoCalibrationTargetError();
  return target;
}

/** The budget a release's session of this suite gets, as the daemon and check compute it without an upstream's own. */
export function releaseBudget(settings: Pick<CompareSettings, 'budgetMinutes'>, suite: Suite): number {
  return settings.budgetMinutes ?? suite.budgetMinutes;
}

/**
 * Calibrates this host for a suite: one target as both sides of a paired session in which every test gets a pair in
 * every sweep (nothing decided early) until the budget, then per test the noise of a pair, its wall time and what a 5%
 * detectable drop costs; stored for the daemon and `status`.
 */
export async function runCalibration(
  request: CalibrateRequest,
  deps: CompareDeps & { store: CalibrationStore },
): Promise<CalibrationOutcome> {
  const { settings, store } = deps;
  const { target } = request;
  const budgetMinutes = request.budgetMinutes ?? request.suite.budgetMinutes;
  deps.log.info(
    { target, suite: request.suite.name, budgetMinutes },
    `calibrating: ${target} against itself, ${request.suite.name} suite, ${budgetMinutes} min of pairs`,
  );
  // Several sweeps per pair of instances, so the spread between instances shows against the pairs within them.
  const instanceSeconds = CALIBRATION_SWEEPS_PER_INSTANCE * runSecondsOfSweep(request.suite);
  const outcome = await runComparison(
    {
      baseline: target,
      candidate: target,
      suite: request.suite,
      rounds: 1,
      design: 'paired',
      budgetMinutes,
      sequential: false,
      instanceSeconds,
    },
    deps,
  );
  const session = await store.getSession(outcome.sessionId);
  const samples = await store.completedSamples(outcome.sessionId);
  const inputs = calibrationInputs(samples, instanceSeconds);
  const calibration: CalibrationSettings = {
    alpha: settings.verdicts.alpha,
    family: inputs.length,
    drop: CALIBRATION_DROP,
    maxPairs: settings.maxPairs,
  };
  const figures = inputs.map((i) => calibrateTest(i, calibration));
  const spreads = figures.flatMap((f) => (typeof f.instanceSpread === 'number' ? [f.instanceSpread] : []));
  const stored: StoredCalibrationSettings = {
    alpha: settings.verdicts.alpha,
    family: inputs.length,
    drop: CALIBRATION_DROP,
    budgetMinutes,
    releaseBudgetMinutes: releaseBudget(settings, request.suite),
    maxPairs: settings.maxPairs,
    idleStatesHeld: outcome.plan.idleStatesHeld,
  };
  const record = await store.recordCalibration({
    hostId: session!.hostId,
    sessionId: outcome.sessionId,
    suite: request.suite.name,
    target,
    settings: stored,
    tests: figures,
    instanceSpread: spreads.length > 0 ? median(spreads) : null,
  });
  // A release's session restarts its servers every instance_seconds of runs, as its pre-flight plans it.
  const release = planSweeps(request.suite, stored.releaseBudgetMinutes, settings.maxPairs, {
    alpha: settings.verdicts.alpha,
    instanceSeconds: settings.instanceSeconds,
  });
  return {
    record,
    figures,
    expectation: expectationAtBudget(figures, stored.releaseBudgetMinutes, settings.maxPairs, calibration, {
      blocks: { sweepsPerBlock: release.sweepsPerBlock, restartSeconds: RESTART_SECONDS },
      suiteSpread: record.instanceSpread,
    }),
    minutes: outcome.paired?.minutes ?? 0,
    sweeps: outcome.paired?.sweeps ?? 0,
  };
}
