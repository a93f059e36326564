import { barFraction, chartReferences, chartScale, chartValue, TONE_MARKERS } from './chart-scale.js';
import type { ChartBar, ChartBlock, ChartTone } from './document.js';
import { htmlText } from './html-escape.js';
import { MONO } from './html-style.js';

/** Bar colours; the tone's word is printed beside each bar too, so nothing depends on colour alone. */
export const TONE_COLORS: Readonly<Record<ChartTone, string>> = {
  ok: '#2da44e',
  regression: '#cf222e',
  improvement: '#0969da',
  slower: '#e16f24',
  unstable: '#bf8700',
  neutral: '#8c959f',
};

const BAR_AREA_PX = 320;
const REFERENCE_COLOR = '#57606a';
const CELL = 'padding:2px 10px 2px 0;white-space:nowrap';
// An empty cell collapses in some clients unless it holds a space and its font cannot make it taller.
const FILLER = 'font-size:0;line-height:0';

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/**
 * The bar area: a nested table whose first cell is as wide as the value (in percent of the area), which every email
 * client draws, unlike CSS widths on divs. `filled` styles the first cell: a coloured bar, or a reference's tick.
 */
function barArea(fraction: number, filled: string): string {
  const cells = [
    ...(fraction > 0
      ? [`<td width="${percent(fraction)}" style="width:${percent(fraction)};${filled};${FILLER}">&nbsp;</td>`]
      : []),
    ...(fraction < 1 ? [`<td style="${FILLER}">&nbsp;</td>`] : []),
  ];
  const table =
    `<table role="presentation" width="100%" cellpadding="0" ` +
    `cellspacing="0" border="0" ` +
    `style="width:100%;border-collapse:collapse"><tr>${cells.join('')}</tr></table>`;
  return `<td width="${BAR_AREA_PX}" style="width:${BAR_AREA_PX}px;padding:2px 10px 2px 0">${table}</td>`;
}

function row(label: string, area: string, value: string, marker: string, color: string): string {
  return [
    '<tr>',
    `<td style="${CELL}">${htmlText(label)}</td>`,
    area,
    `<td align="right" style="${CELL};text-align:right">${htmlText(value)}</td>`,
    `<td style="${CELL};color:${color}">${htmlText(marker)}</td>`,
    '</tr>',
  ].join('');
}

function barRow(bar: ChartBar, scale: number): string {
  const color = TONE_COLORS[bar.tone];
  const area = barArea(barFraction(bar.value, scale), `height:14px;background-color:${color}`);
  return row(bar.label, area, chartValue(bar.value), TONE_MARKERS[bar.tone], color);
}

/** A reference as a thin row whose right edge is a tick at its value, under the bars it is read against. */
function referenceRow(value: number, scale: number): string {
  const area = barArea(barFraction(value, scale), `height:8px;border-right:2px solid ${REFERENCE_COLOR}`);
  return row('reference', area, chartValue(value), '', REFERENCE_COLOR);
}

/** The chart as tables with inline styles: bars are cells with a background colour and a width in percent. */
export function renderHtmlChart(chart: ChartBlock): string[] {
  const scale = chartScale(chart);
  return [
    `<p style="margin:0 0 6px 0;font-weight:bold">${htmlText(chart.title)}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" ` +
      `style="border-collapse:collapse;margin:0 0 12px ` +
      `0;${MONO};font-size:13px">`,
    ...chart.bars.map((bar) => barRow(bar, scale)),
    ...chartReferences(chart).map((value) => referenceRow(value, scale)),
    '</table>',
  ];
}
