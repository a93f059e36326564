import { InvalidReportDataError } from './errors.js';
import { TABLE_FIGURES, type Figures, type HistoryTest, type HistoryView } from '../model/index.js';

function checkFigures(figures: Figures, path: string): void {
  for (const { field } of TABLE_FIGURES) {
    const value: unknown = figures[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidReportDataError(`${path}.${field}`, value, 'expected a finite number, 0 or more');
    }
  }
}

function checkTest(row: HistoryTest, path: string, versions: number): void {
  if (!Number.isInteger(row.threads) || row.threads < 1) {
    throw new InvalidReportDataError(`${path}.threads`, row.threads, 'expected a whole number of threads, 1 or more');
  }
  if (!Array.isArray(row.figures) || row.figures.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the version was not measured`;
    throw new InvalidReportDataError(`${path}.figures.length`, Array.isArray(row.figures) ? row.figures.length : row.figures, reason);
  }
  row.figures.forEach((figures, index) => {
    if (figures !== null) checkFigures(figures, `${path}.figures[${index}]`);
  });
  if (row.detectableDrop === undefined) return;
  if (!Array.isArray(row.detectableDrop) || row.detectableDrop.length !== versions) {
    const reason = `expected one entry per version (${versions}), null where the release was not checked`;
    throw new InvalidReportDataError(`${path}.detectableDrop.length`, Array.isArray(row.detectableDrop) ? row.detectableDrop.length : row.detectableDrop, reason);
  }
  row.detectableDrop.forEach((drop: unknown, index) => {
    if (drop !== null && (typeof drop !== 'number' || !Number.isFinite(drop) || drop < 0 || drop > 1)) {
      throw new InvalidReportDataError(`${path}.detectableDrop[${index}]`, drop, 'expected a ratio from 0 to 1, or null');
    }
  });
}

/** Refuses a view that cannot be rendered, naming the field, before any format prints part of it. */
export function checkHistoryView(view: HistoryView): void {
  if (!Number.isInteger(view.baseIndex) || view.baseIndex < 0 || view.baseIndex >= view.versions.length) {
    const reason = view.versions.length === 0 ? 'there are no versions' : `expected an index of versions, 0 to ${view.versions.length - 1}`;
    throw new InvalidReportDataError('view.baseIndex', view.baseIndex, reason);
  }
  view.tests.forEach((row, index) => checkTest(row, `view.tests[${index}]`, view.versions.length));
}
