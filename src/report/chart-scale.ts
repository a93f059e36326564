import type { ChartBar, ChartBlock, ChartTone } from './document.js';
import { formatRatio, UNDEFINED_CELL } from './number-format.js';

/** The word printed beside a bar, so the tone reads without colour (text, markdown, a colour-blind reader). */
export const TONE_MARKERS: Readonly<Record<ChartTone, string>> = {
  ok: 'ok',
  regression: 'regression',
  improvement: 'improvement',
  slower: 'slower',
  unstable: 'unstable',
  neutral: '',
};

/** The word printed beside a bar: its verdict's; none where no test judged it (a history's ratio alone). */
export const barMarker = (bar: ChartBar): string => (bar.judged === false ? '' : TONE_MARKERS[bar.tone]);

function drawable(value: number): boolean {
  return Number.isFinite(value) && value > 0;
}

/**
 * The value the full bar width stands for: the largest bar, or a larger reference so every reference line fits.
 * 0 when nothing can be drawn.
 */
export function chartScale(chart: ChartBlock): number {
  const values = [...chart.bars.map((bar) => bar.value), ...chart.references].filter(drawable);
  return values.length > 0 ? Math.max(...values) : 0;
}

/** The share of the full width a value fills, 0 to 1; 0 for a value that is not finite or not positive. */
export function barFraction(value: number, scale: number): number {
  return drawable(value) && scale > 0 ? Math.min(1, value / scale) : 0;
}

/** Two decimals, or "-" for a value that is not finite (a ratio over zero). */
export function chartValue(value: number): string {
  return Number.isFinite(value) ? formatRatio(value) : UNDEFINED_CELL;
}

/** The references that can be drawn, in increasing order, each once. */
export function chartReferences(chart: ChartBlock): number[] {
  return [...new Set(chart.references.filter(drawable))].sort((a, b) => a - b);
}
