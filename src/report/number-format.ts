import { InvalidReportDataError } from './errors.js';

/** Printed for a value that is not defined (a ratio over zero, a counter one side lacks). */
export const UNDEFINED_CELL = '-';

function requireFinite(value: number, what: string): void {
  if (!Number.isFinite(value)) throw new InvalidReportDataError(what, value, 'expected a finite number');
}

function trimFractionZeros(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * A number with `digits` significant digits, never in exponent form and without trailing zeros, so one rule suits
 * every column: cpu/o 0.000312, cs/o 5.1, o/s 12345 (whole parts are never rounded away).
 */
export function formatSignificant(value: number, digits = 3): string {
  requireFinite(value, 'formatted value');
  if (value === 0) return '0';
  // Round first: 9.996 must be formatted as 10, with the decimals of 10.
  const rounded = Number(value.toPrecision(digits));
  const magnitude = Math.floor(Math.log10(Math.abs(rounded)));
  if (magnitude >= digits - 1) return String(Math.round(value));
  const decimals = digits - 1 - magnitude;
  // toFixed accepts at most 100 decimals; values that small are printed as the engine would.
  if (decimals > 100) return String(rounded);
  return trimFractionZeros(rounded.toFixed(decimals));
}

/** A ratio with two decimals (0.96, 1.00), or "-" when it is not defined. */
export function formatRatio(value: number | undefined): string {
  if (value === undefined) return UNDEFINED_CELL;
  requireFinite(value, 'ratio');
  return value.toFixed(2);
}

/** Printed for a ratio over zero in the history report, as in the reference studies. */
export const INFINITE_CELL = 'inf';

/** A ratio from ratioOrOne: two decimals, "inf" for x/0, or "-" when it is not defined (a figure is missing). */
export function formatRelative(value: number | undefined): string {
  if (value === Number.POSITIVE_INFINITY) return INFINITE_CELL;
  return formatRatio(value);
}

/** A percent with one decimal (2.3%), or "-" when it is not defined. */
export function formatPercent(value: number | undefined): string {
  if (value === undefined) return UNDEFINED_CELL;
  requireFinite(value, 'percent');
  return `${value.toFixed(1)}%`;
}

/** A min-max range of measured values, e.g. 12200-12480. */
export function formatRange(min: number, max: number): string {
  return `${formatSignificant(min)}-${formatSignificant(max)}`;
}

/**
 * A drop given as a fraction (0.043) as a whole percent rounded up (5%): "no drop larger than X%" and "it could
 * detect drops of X% or more" must stay true as printed. Negative fractions (no drop at all) print 0%.
 */
export function formatDropPercent(fraction: number): string {
  requireFinite(fraction, 'drop');
  // The tolerance keeps 1 - 0.95 (0.05000000000000004) at 5%.
  return `${Math.max(0, Math.ceil(fraction * 100 - 1e-9))}%`;
}

/**
 * What an ok verdict rules out, from its interval's lower end: "no drop larger than 4%", or "no drop" when the whole
 * interval lies at or over 1 ("no drop larger than 0%" read as a misprint).
 */
export function formatOkBound(low: number): string {
  return low >= 1 ? 'no drop' : `no drop larger than ${formatDropPercent(1 - low)}`;
}

/**
 * A detectable drop: "unreachable" at 1, where the look's sign vectors could not go below its alpha (docs/verdicts.md).
 */
export function formatDetectableDrop(fraction: number): string {
  return fraction >= 1 ? 'unreachable' : formatDropPercent(fraction);
}

/** An interval of relative QPS, e.g. 0.96-1.03; "inf" when it has no upper end. */
export function formatInterval(low: number, high: number | null): string {
  return `${formatRatio(low)}-${high === null ? INFINITE_CELL : formatRatio(high)}`;
}

/**
 * A slower verdict's estimate with its interval, e.g. 0.962 (0.931-0.987): three decimals, because two would print an
 * upper end of 0.996 as 1.00, and a significant slowdown would read as none.
 */
export function formatSlowerEstimate(estimate: number, low: number, high: number | null): string {
  const fine = (value: number): string => {
    requireFinite(value, 'ratio');
    return value.toFixed(3);
  };
  return `${fine(estimate)} (${fine(low)}-${high === null ? INFINITE_CELL : fine(high)})`;
}

/** A confidence as a percent without needless decimals: 0.95 as 95%, 0.975 as 97.5%. */
export function formatConfidence(confidence: number): string {
  requireFinite(confidence, 'confidence');
  return `${Number((confidence * 100).toFixed(1))}%`;
}
