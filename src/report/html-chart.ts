import { barFraction, chartReferences, chartScale, chartValue, barMarker } from './chart-scale.js';
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

const REFERENCE_COLOR = '#57606a';
const WHISKER_COLOR = '#1f2328';
const LABEL_PX = 200;
const PLOT_PX = 380;
const VALUE_PX = 140;
const ROW_PX = 22;
const TOP_PX = 18;

const px = (value: number): string => value.toFixed(1);

/**
 * The chart as an inline SVG: one bar per test in its verdict's colour, its interval as a whisker (an arrow where it
 * runs past the right edge), and each reference (the threshold, 1.00) as a dashed line across every bar with its
 * value on top. The value and the verdict's word are printed beside each bar, so nothing depends on colour alone.
 * No script, no external resource; every label is escaped.
 */
export function renderHtmlChart(chart: ChartBlock): string[] {
  const scale = chartScaleWithIntervals(chart);
  const width = LABEL_PX + PLOT_PX + VALUE_PX;
  const height = TOP_PX + chart.bars.length * ROW_PX + 6;
  const x = (value: number): number => LABEL_PX + barFraction(value, scale) * PLOT_PX;
  const rows = chart.bars.flatMap((bar, i) => barShapes(bar, i, x, scale));
  const shown = chartReferences(chart);
  const references = shown.map((value, i) => {
    const at = px(x(value));
    // Two references close together (0.95 and 1.00) put their values on either side of their lines.
    const crowded = shown.some((other, j) => j !== i && Math.abs(x(other) - x(value)) < 36);
    const anchor = !crowded ? 'middle' : i === 0 ? 'end' : 'start';
    const shift = !crowded ? 0 : i === 0 ? -2 : 2;
    return (
      `<line x1="${at}" y1="${TOP_PX - 4}" x2="${at}" y2="${height - 4}" stroke="${REFERENCE_COLOR}" ` +
      `stroke-width="1" stroke-dasharray="4 3"/>` +
      `<text x="${px(x(value) + shift)}" y="${TOP_PX - 7}" text-anchor="${anchor}" font-size="11" ` +
      `fill="${REFERENCE_COLOR}">${htmlText(chartValue(value))}</text>`
    );
  });
  return [
    `<p style="margin:0 0 6px 0;font-weight:bold">${htmlText(chart.title)}</p>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" role="img" style="margin:0 0 12px 0;${MONO};font-size:12px">`,
    `<title>${htmlText(chart.title)}</title>`,
    ...rows,
    ...references,
    '</svg>',
  ];
}

/** The scale: the bars and references, and the intervals' upper ends up to twice the largest of those. */
function chartScaleWithIntervals(chart: ChartBlock): number {
  const base = chartScale(chart);
  const highs = chart.bars.map((b) => b.high ?? 0).filter((h) => Number.isFinite(h) && h > 0);
  return Math.max(base, Math.min(base * 2, ...(highs.length > 0 ? [Math.max(...highs)] : [0])));
}

function barShapes(bar: ChartBar, index: number, x: (value: number) => number, scale: number): string[] {
  const top = TOP_PX + index * ROW_PX;
  const middle = top + ROW_PX / 2;
  const color = TONE_COLORS[bar.tone];
  const shapes = [
    `<text x="${LABEL_PX - 8}" y="${px(middle + 4)}" text-anchor="end" fill="#1f2328">${htmlText(bar.label)}</text>`,
  ];
  const end = x(bar.value);
  if (end > LABEL_PX)
    shapes.push(
      `<rect x="${LABEL_PX}" y="${px(top + 4)}" width="${px(end - LABEL_PX)}" height="${ROW_PX - 8}" ` +
        `fill="${color}" fill-opacity="0.85"/>`,
    );
  const { low, high } = bar;
  if (low !== undefined && low !== null && high !== undefined) {
    const from = x(Math.max(low, 0));
    const open = high === null || !Number.isFinite(high) || high > scale;
    const to = open ? LABEL_PX + PLOT_PX : x(high);
    shapes.push(
      `<line x1="${px(from)}" y1="${px(middle)}" x2="${px(to)}" y2="${px(middle)}" stroke="${WHISKER_COLOR}" ` +
        `stroke-width="1.5"/>`,
      `<line x1="${px(from)}" y1="${px(middle - 5)}" x2="${px(from)}" y2="${px(middle + 5)}" ` +
        `stroke="${WHISKER_COLOR}" stroke-width="1.5"/>`,
      open
        ? `<path d="M${px(to)} ${px(middle)} l-6 -4 v8 z" fill="${WHISKER_COLOR}"/>`
        : `<line x1="${px(to)}" y1="${px(middle - 5)}" x2="${px(to)}" y2="${px(middle + 5)}" ` +
            `stroke="${WHISKER_COLOR}" stroke-width="1.5"/>`,
    );
  }
  const interval =
    low !== undefined && low !== null && high !== undefined
      ? ` (${chartValue(low)}-${chartValue(high ?? Infinity)})`
      : '';
  shapes.push(
    `<text x="${LABEL_PX + PLOT_PX + 8}" y="${px(middle + 4)}" fill="${color}">` +
      `${htmlText(`${chartValue(bar.value)} ${barMarker(bar)}`.trim())}</text>`,
  );
  // The tooltip: the test, its value and its interval, for a reader who points at the bar.
  const tip = `<title>${htmlText(`${bar.label}: ${chartValue(bar.value)}${interval}`)}</title>`;
  return [`<g>${tip}${shapes.join('')}</g>`];
}
