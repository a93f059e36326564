import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  detectableDropAt,
  expectationAtBudget,
  instanceVarianceOf,
  median,
  type BlockCost,
  type BudgetExpectation,
} from '../analysis/index.js';
import type { Logger } from '../log/index.js';
import type { TestId } from '../model/index.js';
import { fingerprintId, hostFingerprint } from '../sampling/index.js';
import type { CalibrationRecord, CalibrationStore } from '../store/index.js';

/**
 * The newest calibration of this host for a suite. The fingerprint records whether the idle states were held, so
 * both readings of this host are looked up and the newer wins. Undefined when the host cannot be fingerprinted.
 */
export async function thisHostCalibration(
  stateDir: string,
  store: CalibrationStore,
  suite: string,
): Promise<CalibrationRecord | undefined> {
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

/** The figures of a stored calibration, read back for an expectation, with their calibrated instance spread. */
export function calibrationExpectation(
  record: CalibrationRecord,
  budgetMinutes: number,
  maxPairs: number,
  alpha: number,
  blocks?: BlockCost,
): BudgetExpectation {
  const figures = record.tests.map((t) => ({ ...t }));
  return expectationAtBudget(
    figures,
    budgetMinutes,
    maxPairs,
    { alpha, family: figures.length, maxPairs },
    { suiteSpread: record.instanceSpread, ...(blocks !== undefined ? { blocks } : {}) },
  );
}

/**
 * Per test, the drop `pairs` pairs in blocks of `pairsPerBlock` catch at this calibration's pair noise and spread
 * between instances (the test's own, else the calibration's median), the suite's tests sharing alpha.
 */
export function calibratedDrops(
  record: CalibrationRecord,
  pairs: number,
  alpha: number,
  maxPairs: number,
  pairsPerBlock = 1,
): Array<TestId & { detectableDrop: number }> {
  return record.tests.map((t) => ({
    test: t.test,
    threads: t.threads,
    detectableDrop:
      t.noise === null
        ? 1
        : detectableDropAt(pairs, t.noise, {
            alpha,
            family: record.tests.length,
            maxPairs,
            pairsPerBlock,
            instanceVariance: instanceVarianceOf(t, record.instanceSpread),
          }),
  }));
}

const warnedUncalibrated = new Set<string>();

/**
 * This host's newest calibration for the suite, or, once per suite and process, a warning that the host was never
 * calibrated for it (and undefined). A calibration that cannot be read is left out quietly: it only adds figures.
 */
export async function calibrationOrWarn(
  deps: { stateDir: string; store: CalibrationStore; log: Logger },
  suite: string,
): Promise<CalibrationRecord | undefined> {
  let record: CalibrationRecord | undefined;
  try {
    record = await thisHostCalibration(deps.stateDir, deps.store, suite);
  } catch (err) {
    deps.log.debug({ error: String(err) }, 'the calibration of this host could not be read');
    return undefined;
  }
  if (record === undefined && !warnedUncalibrated.has(suite)) {
    warnedUncalibrated.add(suite);
    deps.log.warn(
      { suite },
      `this host has no calibration for the ${suite} suite: how small a drop ` +
        `a session can catch here is unknown; run qpswatch calibrate --suite ` +
        `${suite}`,
    );
  }
  return record;
}

/** "3-9%" (or "4%" when all round alike). */
export function percentRange(values: readonly number[]): string {
  if (values.length === 0) return '?';
  const lo = Math.round(Math.min(...values) * 100);
  const hi = Math.round(Math.max(...values) * 100);
  return lo === hi ? `${lo}%` : `${lo}-${hi}%`;
}

/**
 * A level whose tests, by the median, cannot catch a drop this small at the release's budget is too noisy on this host
 * to be worth its minutes: the quick suite's comment puts its use at regressions of about 10% and more, and on a 2-core
 * host 2 client threads gave pairs of 17-30% noise against 3-7% at 1 (docs/verdicts.md).
 */
export const NOISY_LEVEL_DROP = 0.1;

/** What a level (a thread count) of a suite can detect: its tests' drops, and whether it is too noisy. */
export interface LevelReach {
  threads: number;
  drops: number[];
  noisy: boolean;
}

/** The detectable drops grouped by thread count (a suite's levels), fewest threads first. */
export function levelReach(drops: ReadonlyArray<{ threads: number; detectableDrop: number }>): LevelReach[] {
  const byThreads = new Map<number, number[]>();
  for (const d of drops) byThreads.set(d.threads, [...(byThreads.get(d.threads) ?? []), d.detectableDrop]);
  return [...byThreads.entries()]
    .sort(([a], [b]) => a - b)
    .map(([threads, values]) => ({ threads, drops: values, noisy: median(values) > NOISY_LEVEL_DROP }));
}

/** The line that says a level is too noisy here, and what to do about it. */
export function noisyLevelLine(level: LevelReach, budgetText: string): string {
  return (
    `level t${level.threads} is too noisy on this host: at ${budgetText} ` +
    `its tests detect drops of ${percentRange(level.drops)} (median above ` +
    `${Math.round(NOISY_LEVEL_DROP * 100)}%); ` +
    ('fixes: a quieter host, longer runs (seconds), a larger budget_minutes, ' +
      'or fewer client threads than the cores for it')
  );
}
