import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CALIBRATION_DROP, calibrateTest, calibrationInputs, expectationAtBudget, type BudgetExpectation, type CalibrationSettings } from '../analysis/index.js';
import type { CalibrationFigure } from '../model/index.js';
import type { Config } from '../config/index.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';
import { fingerprintId, hostFingerprint } from '../sampling/index.js';
import type { CalibrationRecord, CalibrationStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import { runComparison, type CompareDeps } from './compare.js';
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
    super('no target to calibrate: the config has no calibrate_target and no targets; add one under targets: (e.g. `targets: { local: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed } }`, see config/quickstart.yaml) or give --target NAME');
  }
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
export async function runCalibration(request: CalibrateRequest, deps: CompareDeps & { store: CalibrationStore }): Promise<CalibrationOutcome> {
  const { settings, store } = deps;
  const { target } = request;
  const budgetMinutes = request.budgetMinutes ?? request.suite.budgetMinutes;
  deps.log.info({ target, suite: request.suite.name, budgetMinutes }, `calibrating: ${target} against itself, ${request.suite.name} suite, ${budgetMinutes} min of pairs`);
  const outcome = await runComparison({ baseline: target, candidate: target, suite: request.suite, rounds: 1, design: 'paired', budgetMinutes, sequential: false }, deps);
  const session = await store.getSession(outcome.sessionId);
  const samples = await store.completedSamples(outcome.sessionId);
  const inputs = calibrationInputs(samples);
  const calibration: CalibrationSettings = { alpha: settings.verdicts.alpha, family: inputs.length, drop: CALIBRATION_DROP, maxPairs: settings.maxPairs };
  const figures = inputs.map((i) => calibrateTest(i, calibration));
  const stored: StoredCalibrationSettings = {
    alpha: settings.verdicts.alpha,
    family: inputs.length,
    drop: CALIBRATION_DROP,
    budgetMinutes,
    releaseBudgetMinutes: releaseBudget(settings, request.suite),
    maxPairs: settings.maxPairs,
    idleStatesHeld: outcome.plan.idleStatesHeld,
  };
  const record = await store.recordCalibration({ hostId: session!.hostId, sessionId: outcome.sessionId, suite: request.suite.name, target, settings: stored, tests: figures });
  return {
    record,
    figures,
    expectation: expectationAtBudget(figures, stored.releaseBudgetMinutes, settings.maxPairs, calibration),
    minutes: outcome.paired?.minutes ?? 0,
    sweeps: outcome.paired?.sweeps ?? 0,
  };
}

/**
 * The newest calibration of this host for a suite. The fingerprint records whether the idle states were held, so
 * both readings of this host are looked up and the newer wins. Undefined when the host cannot be fingerprinted.
 */
export async function thisHostCalibration(stateDir: string, store: CalibrationStore, suite: string): Promise<CalibrationRecord | undefined> {
  const all = await thisHostCalibrations(stateDir, store);
  return all.find((c) => c.suite === suite);
}

/** Every calibration of this host (either idle-state reading), newest first. */
export async function thisHostCalibrations(stateDir: string, store: CalibrationStore): Promise<CalibrationRecord[]> {
  const work = join(stateDir, 'work');
  let fp;
  try {
    // Only the id is wanted here: the inventory (about a second of helper programs) does not change it.
    fp = await hostFingerprint(existsSync(work) ? work : stateDir, { inventory: false });
  } catch {
    return [];
  }
  const ids = [...new Set([true, false].map((held) => fingerprintId({ ...fp, idleStatesHeld: held })))];
  const found = (await Promise.all(ids.map((id) => store.calibrationsOfHost(id)))).flat();
  return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

/** The figures of a stored calibration, read back for an expectation. */
export function calibrationExpectation(record: CalibrationRecord, budgetMinutes: number, maxPairs: number, alpha: number): BudgetExpectation {
  const figures = record.tests.map((t) => ({ ...t }));
  return expectationAtBudget(figures, budgetMinutes, maxPairs, { alpha, family: figures.length, maxPairs });
}

const warnedUncalibrated = new Set<string>();

/**
 * Before a check's session: the detectable drop per test this host's calibration promises at the session's budget,
 * or, once per suite and process, a warning that the host was never calibrated for it.
 */
export async function logCalibratedExpectation(deps: { settings: CompareSettings; store: CalibrationStore; log: Logger }, suite: Suite, budgetMinutes: number): Promise<void> {
  const { settings, log } = deps;
  let record: CalibrationRecord | undefined;
  try {
    record = await thisHostCalibration(settings.stateDir, deps.store, suite.name);
  } catch (err) {
    log.debug({ error: String(err) }, 'the calibration of this host could not be read');
    return;
  }
  if (record === undefined) {
    if (warnedUncalibrated.has(suite.name)) return;
    warnedUncalibrated.add(suite.name);
    log.warn({ suite: suite.name }, `this host has no calibration for the ${suite.name} suite: how small a drop a session can catch here is unknown; run qpswatch calibrate --suite ${suite.name}`);
    return;
  }
  const e = calibrationExpectation(record, budgetMinutes, settings.maxPairs, settings.verdicts.alpha);
  const drops = e.drops.map((d) => d.detectableDrop);
  const detectable = Object.fromEntries(e.drops.map((d) => [`${d.test}.t${d.threads}`, Number((d.detectableDrop * 100).toFixed(1))]));
  log.info(
    { suite: suite.name, calibratedAt: record.createdAt, budgetMinutes, pairs: e.pairs, detectablePercent: detectable },
    `calibrated expectation: ${e.pairs} pairs per test in ${budgetMinutes} min, detectable drop ${percentRange(drops)} per test`,
  );
}

/** "3-9%" (or "4%" when all round alike). */
export function percentRange(values: readonly number[]): string {
  if (values.length === 0) return '?';
  const lo = Math.round(Math.min(...values) * 100);
  const hi = Math.round(Math.max(...values) * 100);
  return lo === hi ? `${lo}%` : `${lo}-${hi}%`;
}
