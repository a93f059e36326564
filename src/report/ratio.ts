import { InvalidReportDataError } from './errors.js';

function requireFinite(value: number, what: string): void {
  if (!Number.isFinite(value)) throw new InvalidReportDataError(what, value, 'expected a finite number');
}

/**
 * numerator / denominator, or undefined when the ratio is not defined. 0/0 is 1, as in the reference studies: a
 * resource neither side used did not change. x/0 is undefined (printed "-"): "inf" would read as a measurement.
 * A quotient that overflows is treated as undefined for the same reason.
 */
export function ratio(numerator: number, denominator: number): number | undefined {
  requireFinite(numerator, 'ratio numerator');
  requireFinite(denominator, 'ratio denominator');
  if (denominator === 0) return numerator === 0 ? 1 : undefined;
  const quotient = numerator / denominator;
  return Number.isFinite(quotient) ? quotient : undefined;
}

/**
 * Width of the min..max range as a percent of the median; undefined when the median is 0 and the range is not.
 * Unlike ratio(), an empty range over a zero median is 0 %, not 100 %: nothing varied.
 */
export function spreadPercent(min: number, max: number, median: number): number | undefined {
  requireFinite(min, 'spread min');
  requireFinite(max, 'spread max');
  requireFinite(median, 'spread median');
  if (max === min) return 0;
  const share = ratio(max - min, median);
  return share === undefined ? undefined : share * 100;
}
