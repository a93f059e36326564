import { barFraction, chartReferences, chartScale, chartValue, barMarker } from './chart-scale.js';
import type { ChartBlock } from './document.js';
import { cellWidth, padCell } from './table.js';
import { printable } from './printable.js';

/** Characters of the longest bar: with labels and values a line stays within about 80 columns. */
export const TEXT_BAR_WIDTH = 40;
const BAR = '#';
const REFERENCE = '|';

/** Cells [0, n) of the bar area for a value: a bar ending exactly on a reference ends on its mark. */
function cellsFor(fraction: number): number {
  return Math.round(fraction * TEXT_BAR_WIDTH);
}

function barArea(value: number, scale: number, referenceColumns: readonly number[]): string {
  const cells = Array.from({ length: TEXT_BAR_WIDTH }, (_, index): string =>
    index < cellsFor(barFraction(value, scale)) ? BAR : ' ',
  );
  for (const column of referenceColumns) cells[column] = REFERENCE;
  return cells.join('');
}

/**
 * One line per bar: the label padded, a bar of "#" scaled to the largest value with "|" where each reference falls,
 * the value with two decimals and the tone's marker. The first line is the title with what the marks stand for.
 */
export function renderTextChart(chart: ChartBlock): string[] {
  const scale = chartScale(chart);
  const references = chartReferences(chart);
  const referenceColumns = references.map((value) => Math.max(0, cellsFor(barFraction(value, scale)) - 1));
  const labels = chart.bars.map((bar) => printable(bar.label));
  const values = chart.bars.map((bar) => chartValue(bar.value));
  const labelWidth = Math.max(0, ...labels.map(cellWidth));
  const valueWidth = Math.max(0, ...values.map(cellWidth));
  const legend = references.length > 0 ? ` (${REFERENCE} at ${references.map(chartValue).join(', ')})` : '';
  const lines = chart.bars.map((bar, index) =>
    [
      padCell(labels[index] ?? '', labelWidth, 'left'),
      barArea(bar.value, scale, referenceColumns),
      padCell(values[index] ?? '', valueWidth, 'right'),
      barMarker(bar),
    ]
      .join('  ')
      .trimEnd(),
  );
  return [printable(chart.title) + legend, ...lines];
}
