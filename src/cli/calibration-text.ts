import type { BudgetExpectation } from '../analysis/index.js';
import type { CalibrationRecord } from '../store/index.js';
import { testLabel, type CalibrationFigure } from '../model/index.js';
import { levelReach, noisyLevelLine } from '../session/index.js';
import { relativeTime } from './relative-time.js';

const pct = (x: number | null, digits = 1): string =>
  x === null || !Number.isFinite(x) ? '?' : `${(x * 100).toFixed(digits)}%`;

/** "3-9%" from shares, "4%" when they round alike; "?" with none. */
function range(values: readonly number[], unit: string, scale = 1): string {
  if (values.length === 0) return '?';
  const lo = Math.round(Math.min(...values) * scale);
  const hi = Math.round(Math.max(...values) * scale);
  return lo === hi ? `${lo}${unit}` : `${lo}-${hi}${unit}`;
}

/**
 * One line per calibration for `status`: "calibrated 2 h ago: quick, pair noise 3-9%, 5% detectable in 14-60 pairs
 * (~25 min)". The minutes are what giving each test its own pairs for 5% costs, added up over the tests.
 */
export function calibrationSummary(c: CalibrationRecord, now: Date): string {
  const noises = c.tests.map((t) => t.noise).filter((n): n is number => n !== null);
  const needed = c.tests.filter(
    (t): t is CalibrationFigure & { pairsNeeded: number; minutesNeeded: number } =>
      t.pairsNeeded !== null && t.minutesNeeded !== null,
  );
  const minutes = needed.reduce((a, t) => a + t.minutesNeeded, 0);
  const outOfReach = c.tests.length - needed.length;
  const reach =
    needed.length === 0
      ? '5% detectable in no affordable number of pairs'
      : `5% detectable in ${range(
          needed.map((t) => t.pairsNeeded),
          ' pairs',
        )} (~${Math.ceil(minutes)} min)`;
  return (
    `calibrated ${relativeTime(c.createdAt, now)}: ${c.suite}, pair noise ` +
    `${range(noises, '%', 100)}, ` +
    `${reach}${outOfReach > 0 ? `, ${outOfReach} test(s) out of reach` : ''}`
  );
}

/** The table `qpswatch calibrate` prints, then the totals for a release at its budget. */
export function renderCalibration(input: {
  record: CalibrationRecord;
  expectation: BudgetExpectation;
  minutes: number;
  sweeps: number;
  fingerprintId: string;
}): string {
  const { record, expectation: e } = input;
  const drop = Number(record.settings['drop'] ?? 0.05);
  const dropText = `${Math.round(drop * 100)}%`;
  const head = [
    'test',
    'pairs',
    'pair noise',
    'pair s',
    `pairs for ${dropText}`,
    `min for ${dropText}`,
    'drop now',
    `drop in ${fmtMinutes(e.budgetMinutes)} min`,
  ];
  const atBudget = new Map(e.drops.map((d) => [`${testLabel(d)}`, d.detectableDrop]));
  const rows = record.tests.map((t) => {
    const key = `${testLabel(t)}`;
    return [
      key,
      String(t.pairs),
      pct(t.noise),
      t.pairSeconds.toFixed(1),
      t.pairsNeeded === null ? 'out of reach' : String(t.pairsNeeded),
      t.minutesNeeded === null ? '-' : t.minutesNeeded.toFixed(1),
      pct(t.detectableDrop),
      pct(atBudget.get(key) ?? 1),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const needed = record.tests.filter((t) => t.minutesNeeded !== null);
  const total = needed.reduce((a, t) => a + (t.minutesNeeded ?? 0), 0);
  const drops = e.drops.map((d) => d.detectableDrop);
  const out = [
    `calibration ${record.id} of host ${input.fingerprintId}: suite ` +
      `${record.suite}, target ${JSON.stringify(record.target)} against ` +
      `itself, ${input.sweeps} pair(s) per test in ${input.minutes.toFixed(1)} ` +
      `min (session ${record.sessionId})`,
    '',
    line(head),
    ...rows.map(line),
    '',
    `pair noise: sd of log(C/B) per pair, outliers clipped; pair s: wall ` +
      `seconds of one pair; pairs for ${dropText}: the fewest pairs that ` +
      `detect a ${dropText} drop 4 times in 5 (alpha ` +
      `${String(record.settings['alpha'])} spent over looks, shared by ` +
      `${record.tests.length} test(s)); drop now: what these pairs detect.`,
    `a release at its budget of ${fmtMinutes(e.budgetMinutes)} min ` +
      `(budget_minutes, else the suite's), every test in every sweep: ` +
      `${e.pairs} pairs per test in ${e.minutes.toFixed(1)} min of pairs; ` +
      `expected detectable drop per test ${range(drops, '%', 100)}.`,
    `every test to ${dropText}: ${outOfReach(record.tests.length - needed.length)}~${Math.ceil(total)} ` +
      `min of pairs per release.`,
    spreadLine(record),
    ...levelLines(record, e),
  ];
  return `${out.join('\n')}\n`;
}

/**
 * Per level (thread count) when the suite has more than one: its pair noise and what a release's session can detect
 * there, and a line for each level too noisy on this host. A single level gets the noisy line only.
 */
function levelLines(record: CalibrationRecord, e: BudgetExpectation): string[] {
  const levels = levelReach(e.drops);
  const budgetText = `a release's budget (${e.pairs} pairs)`;
  const summary =
    levels.length > 1
      ? levels.map((l) => {
          const noises = record.tests
            .filter((t) => t.threads === l.threads)
            .map((t) => t.noise)
            .filter((n): n is number => n !== null);
          return (
            `level t${l.threads}: pair noise ${range(noises, '%', 100)}, expected ` +
            `detectable drop per test ${range(l.drops, '%', 100)}.`
          );
        })
      : [];
  return [...summary, ...levels.filter((l) => l.noisy).map((l) => `${noisyLevelLine(l, budgetText)}.`)];
}

/**
 * The spread between two server instances of one release on this host: what bench:sim draws its offsets from, and
 * why the verdicts count blocks of instances, not pairs.
 */
function spreadLine(record: CalibrationRecord): string {
  const spreads = record.tests.flatMap((t) => (typeof t.instanceSpread === 'number' ? [t.instanceSpread] : []));
  if (record.instanceSpread === null || spreads.length === 0)
    return 'spread between server instances: not measured (a longer calibration gives it 3 or more pairs of instances)';
  return (
    `spread between server instances: ${pct(record.instanceSpread)} (median over the tests, ` +
    `${range(spreads, '%', 100)}): the sd of one instance's offset from the release's own speed.`
  );
}

function fmtMinutes(m: number): string {
  return Number.isInteger(m) ? String(m) : m.toFixed(1);
}

/** The newest calibration of each suite, from a list newest first. */
export function newestPerSuite(records: readonly CalibrationRecord[]): CalibrationRecord[] {
  const seen = new Set<string>();
  return records.filter((c) => !seen.has(c.suite) && seen.add(c.suite) !== undefined);
}

/** "2 test(s) out of reach; the others " before the minutes, or nothing when every test is in reach. */
function outOfReach(count: number): string {
  return count === 0 ? '' : `${count} test(s) out of reach; the others `;
}
