import { InvalidReportDataError } from './errors.js';
import {
  isMemorySetting,
  memorySettings,
  PER_OP_FIGURES,
  TABLE_FIGURES,
  type Figures,
  type HistoryTest,
  type HistoryView,
} from '../model/index.js';

const TIME_FIELDS = new Set<string>(PER_OP_FIGURES.filter((f) => f.kind === 'time').map((f) => f.field));

function checkFigures(figures: Figures, path: string): void {
  for (const { field } of TABLE_FIGURES) {
    const value: unknown = figures[field];
    // A time figure the version's results lack (stored or imported before it existed) is absent or NaN.
    if (TIME_FIELDS.has(field) && (value === undefined || Number.isNaN(value))) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidReportDataError(`${path}.${field}`, value, 'expected a finite number, 0 or more');
    }
  }
}

function checkTest(row: HistoryTest, path: string, versions: number): void {
  if (!Number.isInteger(row.threads) || row.threads < 1) {
    throw new InvalidReportDataError(`${path}.threads`, row.threads, 'expected a whole number of threads, 1 or more');
  }
  if (row.memory !== undefined && !isMemorySetting(row.memory)) {
    throw new InvalidReportDataError(
      `${path}.memory`,
      row.memory,
      `expected ${memorySettings.join(' or ')}, or no memory field`,
    );
  }
  if (!Array.isArray(row.figures) || row.figures.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the version was not measured`;
    throw new InvalidReportDataError(
      `${path}.figures.length`,
      Array.isArray(row.figures) ? row.figures.length : row.figures,
      reason,
    );
  }
  row.figures.forEach((figures, index) => {
    if (figures !== null) checkFigures(figures, `${path}.figures[${index}]`);
  });
  checkChained(row, path, versions);
  checkInstructions(row, path, versions);
  if (row.threshold !== undefined && !(typeof row.threshold === 'number' && row.threshold > 0 && row.threshold <= 1)) {
    throw new InvalidReportDataError(`${path}.threshold`, row.threshold, 'expected a ratio over 0, at most 1');
  }
  if (row.detectableDrop === undefined) return;
  if (!Array.isArray(row.detectableDrop) || row.detectableDrop.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the release was not checked`;
    throw new InvalidReportDataError(
      `${path}.detectableDrop.length`,
      Array.isArray(row.detectableDrop) ? row.detectableDrop.length : row.detectableDrop,
      reason,
    );
  }
  row.detectableDrop.forEach((drop: unknown, index) => {
    if (drop !== null && (typeof drop !== 'number' || !Number.isFinite(drop) || drop < 0 || drop > 1)) {
      throw new InvalidReportDataError(
        `${path}.detectableDrop[${index}]`,
        drop,
        'expected a ratio from 0 to 1, or null',
      );
    }
  });
}

/** Refuses a view that cannot be rendered, naming the field, before any format prints part of it. */
export function checkHistoryView(view: HistoryView): void {
  if (!Number.isInteger(view.baseIndex) || view.baseIndex < 0 || view.baseIndex >= view.versions.length) {
    const reason =
      view.versions.length === 0
        ? 'there are no versions'
        : `expected an index of versions, 0 to ${view.versions.length - 1}`;
    throw new InvalidReportDataError('view.baseIndex', view.baseIndex, reason);
  }
  if (
    view.confidence !== undefined &&
    !(typeof view.confidence === 'number' && view.confidence > 0 && view.confidence < 1)
  ) {
    throw new InvalidReportDataError(
      'view.confidence',
      view.confidence,
      'expected a confidence over 0, under 1 (0.95)',
    );
  }
  view.tests.forEach((row, index) => checkTest(row, `view.tests[${index}]`, view.versions.length));
}

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * A chained estimate: a positive ratio inside its positive interval, a whole number of checks, a step with a direction.
 */
function checkChained(row: HistoryTest, path: string, versions: number): void {
  if (row.chained === undefined) return;
  if (!Array.isArray(row.chained) || row.chained.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the version has no chain to the base`;
    throw new InvalidReportDataError(
      `${path}.chained.length`,
      Array.isArray(row.chained) ? row.chained.length : row.chained,
      reason,
    );
  }
  row.chained.forEach((c, index) => {
    if (c === null) return;
    const at = `${path}.chained[${index}]`;
    if (!positive(c.relativeQps))
      throw new InvalidReportDataError(`${at}.relativeQps`, c.relativeQps, 'expected a finite ratio over 0');
    if (!positive(c.low) || c.low > c.relativeQps)
      throw new InvalidReportDataError(`${at}.low`, c.low, 'expected a finite ratio over 0, at most relativeQps');
    if (!positive(c.high) || c.high < c.relativeQps)
      throw new InvalidReportDataError(`${at}.high`, c.high, 'expected a finite ratio, at least relativeQps');
    if (!Number.isInteger(c.steps) || c.steps < 0)
      throw new InvalidReportDataError(`${at}.steps`, c.steps, 'expected a whole number of checks, 0 or more');
    if (c.step !== null && ((c.step.direction !== 'down' && c.step.direction !== 'up') || !positive(c.step.ratio))) {
      throw new InvalidReportDataError(`${at}.step`, c.step.direction, 'expected down or up, with a ratio over 0');
    }
  });
}

const optionalPositive = (value: unknown): boolean => value === null || positive(value);

/** The lane's figures: a positive count per query, a spread of 0 or more, repeats, positive ratios or none. */
function checkInstructions(row: HistoryTest, path: string, versions: number): void {
  if (row.instructions === undefined) return;
  if (!Array.isArray(row.instructions) || row.instructions.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the version was not counted`;
    throw new InvalidReportDataError(
      `${path}.instructions.length`,
      Array.isArray(row.instructions) ? row.instructions.length : row.instructions,
      reason,
    );
  }
  row.instructions.forEach((c, index) => {
    if (c === null) return;
    const at = `${path}.instructions[${index}]`;
    if (!positive(c.perQuery))
      throw new InvalidReportDataError(`${at}.perQuery`, c.perQuery, 'expected a finite count over 0');
    if (!(typeof c.spread === 'number' && Number.isFinite(c.spread) && c.spread >= 0))
      throw new InvalidReportDataError(`${at}.spread`, c.spread, 'expected a finite fraction, 0 or more');
    if (!Number.isInteger(c.repeats) || c.repeats < 1)
      throw new InvalidReportDataError(`${at}.repeats`, c.repeats, 'expected a whole number of runs, 1 or more');
    for (const field of ['relativeToBase', 'low', 'high'] as const)
      if (!optionalPositive(c[field]))
        throw new InvalidReportDataError(`${at}.${field}`, c[field], 'expected a finite ratio over 0, or null');
  });
}
