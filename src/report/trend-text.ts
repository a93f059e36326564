import type { TrendBlock } from './document.js';
import { STEP_MARKS } from './history-figures.js';
import { formatInterval, formatRatio, UNDEFINED_CELL } from './number-format.js';

/** A trend as lines, for the layouts that cannot draw it: the title, then each version with its value and interval. */
export function renderTextTrend(trend: TrendBlock): string[] {
  const threshold = trend.threshold === null ? '' : ` (threshold ${formatRatio(trend.threshold)})`;
  const points = trend.points.map((p) => {
    const value = p.value === null ? UNDEFINED_CELL : formatRatio(p.value);
    const interval = p.low === null || p.high === null ? '' : ` (${formatInterval(p.low, p.high)})`;
    return `${p.label}: ${value}${interval}${p.step === null ? '' : ` ${STEP_MARKS[p.step]}`}`;
  });
  return [`${trend.title}${threshold}`, ...points];
}
