import type { ComparisonView, SideSummary } from '../model/index.js';
import { InvalidReportDataError } from './errors.js';

/** Every number anywhere in the data must be finite: JSON would turn NaN into null and tables into "NaN". */
function checkNumbers(value: unknown, path: string): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidReportDataError(path, value, 'expected a finite number');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => checkNumbers(item, `${path}[${index}]`));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) checkNumbers(item, `${path}.${key}`);
  }
}

function checkSide(side: SideSummary, path: string): void {
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
