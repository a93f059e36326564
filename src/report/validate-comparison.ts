import { PER_OP_FIGURES, type ComparisonView, type SideSummary } from '../model/index.js';
import { InvalidReportDataError } from './errors.js';

/** Every number anywhere in the data must be finite: JSON would turn NaN into null and tables into "NaN". */
function checkNumbers(value: unknown, path: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidReportDataError(path, value, 'expected a finite number');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => checkNumbers(item, `${path}[${index}]`));
  } else if (typeof value === 'object' && value !== null) {
    // A side's per-op figures are checked by their kind (checkPerOp).
    for (const [key, item] of Object.entries(value)) if (key !== 'perOp') checkNumbers(item, `${path}.${key}`);
  }
}

/**
 * A rate figure is always measured: finite. A time figure is absent (NaN, printed "-") from samples stored before it
 * existed, such as offµs/o of a session before off-CPU time was kept, and finite otherwise.
 */
function checkPerOp(side: SideSummary, path: string): void {
  for (const figure of PER_OP_FIGURES) {
    const value = (side.perOp as Record<string, number | undefined>)[figure.field];
    if (value === undefined || Number.isFinite(value) || (figure.kind === 'time' && Number.isNaN(value))) continue;
    throw new InvalidReportDataError(`${path}.perOp.${figure.field}`, value, 'expected a finite number');
  }
}

function checkSide(side: SideSummary, path: string): void {
  checkPerOp(side, path);
  if (side.qpsMin < 0) throw new InvalidReportDataError(`${path}.qpsMin`, side.qpsMin, 'QPS cannot be negative');
  if (!(side.qpsMin <= side.qps && side.qps <= side.qpsMax)) {
    const reason = `the median must lie within qpsMin ${side.qpsMin} and qpsMax ${side.qpsMax}`;
    throw new InvalidReportDataError(`${path}.qps`, side.qps, reason);
  }
  if (side.hitRatio !== undefined && !(side.hitRatio >= 0 && side.hitRatio <= 1)) {
    throw new InvalidReportDataError(`${path}.hitRatio`, side.hitRatio, 'expected a ratio from 0 to 1');
  }
  if (!Number.isInteger(side.samples) || side.samples < 0) {
    throw new InvalidReportDataError(`${path}.samples`, side.samples, 'expected a whole number of samples');
  }
}

/** Refuses garbage before anything is rendered, naming the field, so no format prints it silently. */
export function checkComparisonView(view: ComparisonView): void {
  checkNumbers(view, 'view');
  view.tests.forEach((row, index) => {
    const path = `view.tests[${index}]`;
    if (!Number.isInteger(row.threads) || row.threads < 1) {
      throw new InvalidReportDataError(`${path}.threads`, row.threads, 'expected a whole number of threads, 1 or more');
    }
    checkSide(row.baseline, `${path}.baseline`);
    checkSide(row.candidate, `${path}.candidate`);
  });
}
