import type { TrendBlock, TrendPoint } from './document.js';
import { STEP_MARKS } from './history-figures.js';
import { htmlText } from './html-escape.js';
import { TONE_COLORS } from './html-chart.js';
import { FONT } from './html-style.js';
import { formatInterval, formatRatio, UNDEFINED_CELL } from './number-format.js';

/**
 * A trend as an inline SVG: the line of values by version, the interval as a shaded band (a whisker where a point has
 * no chained neighbour), the threshold as a dashed line, 1.0 as a thin one, and a triangle where a step began. Points
 * without an interval (medians) are hollow. No script, no external resource; every piece of text is escaped.
 */

const WIDTH = 640;
const HEIGHT = 250;
const PAD = { left: 52, right: 84, top: 20, bottom: 64 };
const LINE_COLOR = '#0969da';
const GRID_COLOR = '#d8dee4';
const AXIS_COLOR = '#57606a';
const STEP_COLOR: Readonly<Record<'down' | 'up', string>> = { down: TONE_COLORS.regression, up: TONE_COLORS.ok };
const NICE_STEPS = [0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10];

const px = (value: number): string => value.toFixed(1);

interface Scale {
  x: (index: number) => number;
  y: (value: number) => number;
  ticks: number[];
}

function scaleOf(trend: TrendBlock): Scale {
  const values = trend.points
    .flatMap((p) => [p.value, p.low, p.high])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  const all = [...values, 1, ...(trend.threshold === null ? [] : [trend.threshold])];
  const [min, max] = [Math.min(...all), Math.max(...all)];
  const span = Math.max(max - min, 0.1);
  const step = NICE_STEPS.find((s) => span / s <= 5) ?? NICE_STEPS.at(-1)!;
  const low = Math.floor((min - span * 0.05) / step) * step;
  const high = Math.ceil((max + span * 0.05) / step) * step;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const n = trend.points.length;
  const ticks: number[] = [];
  for (let t = low; t <= high + step / 2; t += step) ticks.push(Number(t.toFixed(6)));
  return {
    x: (index) => PAD.left + (n <= 1 ? plotWidth / 2 : (index * plotWidth) / (n - 1)),
    y: (value) => PAD.top + ((high - value) / (high - low)) * plotHeight,
    ticks,
  };
}

/** Runs of neighbouring points that all have an interval: each is one band. */
function bandRuns(points: readonly TrendPoint[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  points.forEach((p, index) => {
    if (p.low !== null && p.high !== null) run.push(index);
    else if (run.length > 0) (runs.push(run), (run = []));
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

function band(run: readonly number[], points: readonly TrendPoint[], s: Scale): string {
  if (run.length === 1) {
    const i = run[0]!;
    return (
      `<line x1="${px(s.x(i))}" y1="${px(s.y(points[i]!.high!))}" ` +
      `x2="${px(s.x(i))}" y2="${px(s.y(points[i]!.low!))}" ` +
      `stroke="${LINE_COLOR}" stroke-opacity="0.45" stroke-width="6"/>`
    );
  }
  const upper = run.map((i) => `${px(s.x(i))},${px(s.y(points[i]!.high!))}`);
  const lower = [...run].reverse().map((i) => `${px(s.x(i))},${px(s.y(points[i]!.low!))}`);
  return (
    `<path class="band" d="M${upper.join(' L')} L${lower.join(' L')} Z" ` +
    `fill="${LINE_COLOR}" fill-opacity="0.18" stroke="none"/>`
  );
}

function pointTitle(p: TrendPoint): string {
  const value = p.value === null ? UNDEFINED_CELL : formatRatio(p.value);
  const interval =
    p.low === null || p.high === null
      ? ', median of unpaired runs, no interval'
      : `, interval ${formatInterval(p.low, p.high)}`;
  const step = p.step === null ? '' : `, a step ${p.step} began here`;
  return `${p.label}: ${value}${interval}${step}`;
}

function marker(p: TrendPoint, index: number, s: Scale): string[] {
  if (p.value === null) return [];
  const [cx, cy] = [px(s.x(index)), px(s.y(p.value))];
  const fill = p.low === null ? '#ffffff' : LINE_COLOR;
  const out = [
    `<circle cx="${cx}" cy="${cy}" r="4" fill="${fill}" ` +
      `stroke="${LINE_COLOR}" ` +
      `stroke-width="2"><title>${htmlText(pointTitle(p))}</title></circle>`,
  ];
  if (p.step !== null) {
    // A triangle pointing the step's way, above a drop, below a rise, clear of the band.
    const x = s.x(index);
    const y = p.step === 'down' ? s.y(p.high ?? p.value) - 14 : s.y(p.low ?? p.value) + 14;
    const d =
      p.step === 'down'
        ? `M${px(x - 7)},${px(y - 6)} L${px(x + 7)},${px(y - 6)} L${px(x)},${px(y + 6)} Z`
        : `M${px(x - 7)},${px(y + 6)} L${px(x + 7)},${px(y + 6)} L${px(x)},${px(y - 6)} Z`;
    out.push(
      `<path class="step" d="${d}" ` +
        `fill="${STEP_COLOR[p.step]}"><title>${htmlText(`${STEP_MARKS[p.step]} ${pointTitle(p)}`)}</title></path>`,
    );
  }
  return out;
}

function horizontal(value: number, s: Scale, stroke: string, dash: string, label: string): string[] {
  const y = px(s.y(value));
  return [
    `<line x1="${PAD.left}" y1="${y}" x2="${WIDTH - PAD.right}" y2="${y}" ` +
      `stroke="${stroke}" ` +
      `stroke-width="1.5"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`,
    `<text x="${WIDTH - PAD.right + 6}" y="${y}" dominant-baseline="middle" ` +
      `font-size="11" fill="${stroke}">${htmlText(label)}</text>`,
  ];
}

function versionLabels(points: readonly TrendPoint[], s: Scale): string[] {
  const y = HEIGHT - PAD.bottom + 14;
  return points.map((p, index) => {
    const x = px(s.x(index));
    return (
      `<text x="${x}" y="${y}" font-size="11" fill="${AXIS_COLOR}" ` +
      `text-anchor="end" transform="rotate(-35 ${x} ` +
      `${y})">${htmlText(p.label)}</text>`
    );
  });
}

/** The trend's title, then its SVG. */
export function renderHtmlTrend(trend: TrendBlock): string[] {
  const s = scaleOf(trend);
  const measured = trend.points.flatMap((p, index) =>
    p.value === null ? [] : [`${px(s.x(index))},${px(s.y(p.value))}`],
  );
  const grid = s.ticks.flatMap((t) => [
    `<line x1="${PAD.left}" y1="${px(s.y(t))}" x2="${WIDTH - PAD.right}" ` +
      `y2="${px(s.y(t))}" stroke="${GRID_COLOR}" stroke-width="1"/>`,
    `<text x="${PAD.left - 6}" y="${px(s.y(t))}" text-anchor="end" ` +
      `dominant-baseline="middle" font-size="11" ` +
      `fill="${AXIS_COLOR}">${formatRatio(t)}</text>`,
  ]);
  return [
    `<p style="margin:0 0 6px 0;font-weight:bold">${htmlText(trend.title)}</p>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" ` +
      `height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" ` +
      `style="display:block;margin:0 0 16px 0;${FONT}">`,
    `<title>${htmlText(trend.title)}</title>`,
    ...grid,
    ...bandRuns(trend.points).map((run) => band(run, trend.points, s)),
    ...horizontal(1, s, AXIS_COLOR, '', '1.00'),
    ...(trend.threshold === null
      ? []
      : horizontal(trend.threshold, s, TONE_COLORS.regression, '6 4', `threshold ${formatRatio(trend.threshold)}`)),
    ...(measured.length > 1
      ? [`<polyline points="${measured.join(' ')}" fill="none" stroke="${LINE_COLOR}" stroke-width="2"/>`]
      : []),
    ...trend.points.flatMap((p, index) => marker(p, index, s)),
    ...versionLabels(trend.points, s),
    '</svg>',
  ];
}
