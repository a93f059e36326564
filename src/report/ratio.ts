import { InvalidReportDataError } from './errors.js';

function requireFinite(value: number, what: string): void {
  if (!Number.isFinite(value)) throw new InvalidReportDataError(what, value, 'expected a finite number');
}

/**
 * The one place of the ratio rule of the reference studies: numerator / denominator, where 0/0 is 1 (a resource
 * neither side used did not change) and x/0 for x > 0 is Infinity (the history report prints it "inf", JSON null).
 */
export function ratioOrOne(numerator: number, denominator: number): number {
  requireFinite(numerator, 'ratio numerator');
  requireFinite(denominator, 'ratio denominator');
  if (numerator === 0 && denominator === 0) return 1;
  return numerator / denominator;
}

/**
 * ratioOrOne, or undefined when the quotient is not finite: the comparison report prints x/0 as "-", since "inf"
 * would read as a measurement. A quotient that overflows is treated as undefined for the same reason.
 */
export function ratio(numerator: number, denominator: number): number | undefined {
  const quotient = ratioOrOne(numerator, denominator);
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
