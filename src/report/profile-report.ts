import type { FrameShareRow, ProfileSide } from '../model/index.js';
import type { Block } from './document.js';
import { renderHtmlTable } from './html-layout.js';
import { htmlText } from './html-escape.js';
import { STYLE } from './html-style.js';
import { makeTable, type Table } from './table.js';
import { renderTextTable } from './text-layout.js';

export interface ProfileReport {
  title: string;
  baselineName: string;
  candidateName: string;
  baseline: ProfileSide;
  candidate: ProfileSide;
  grown: readonly FrameShareRow[];
}

const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
const points = (diff: number): string => `${diff >= 0 ? '+' : ''}${(diff * 100).toFixed(1)}`;

/** The functions whose share of samples grew most: total and self share of B and C, and the growth in points. */
export function grownFramesTable(rows: readonly FrameShareRow[]): Table {
  return makeTable(
    [
      { header: 'function', align: 'left' },
      { header: 'B total', align: 'right' },
      { header: 'C total', align: 'right' },
      { header: 'grew (pts)', align: 'right' },
      { header: 'B self', align: 'right' },
      { header: 'C self', align: 'right' },
      { header: 'self grew', align: 'right' },
    ],
    rows.map((r) => [
      r.frame,
      pct(r.baselineTotal),
      pct(r.candidateTotal),
      points(r.totalGrowth),
      pct(r.baselineSelf),
      pct(r.candidateSelf),
      points(r.selfGrowth),
    ]),
  );
}

function sidesLine(report: ProfileReport): string {
  const side = (name: string, p: ProfileSide): string => `${name}: ${p.samples} samples (${p.tool})`;
  return `B ${side(report.baselineName, report.baseline)}; C ${side(report.candidateName, report.candidate)}`;
}

/**
 * A profile as a section of another report (a check's session): its title, the sides, the table of the frames that
 * grew most, and the flame graph, which the HTML layout draws inline.
 */
export function profileDocument(report: ProfileReport): Block[] {
  return [
    { kind: 'heading', level: 2, text: report.title },
    { kind: 'lines', lines: [sidesLine(report)] },
    report.grown.length === 0
      ? { kind: 'lines', lines: ['no function took a larger share of the samples in C than in B'] }
      : { kind: 'table', table: grownFramesTable(report.grown) },
    {
      kind: 'flame-graph',
      graph: { title: report.title, baseline: report.baseline.stacks, candidate: report.candidate.stacks },
    },
  ];
}

/** The table as text lines for a terminal or an email, names shown with their control characters escaped. */
export function renderProfileText(report: ProfileReport): string {
  const lines = [report.title, sidesLine(report), ''];
  if (report.grown.length === 0) lines.push('no function took a larger share of the samples in C than in B');
  else lines.push(...renderTextTable(grownFramesTable(report.grown)));
  return `${lines.join('\n')}\n`;
}

/** A self-contained page: the title, the sides, the table and the flame graph (an SVG inline; no script). */
export function renderProfileHtml(report: ProfileReport, flameGraphSvg: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${htmlText(report.title)}</title>`,
    '</head>',
    `<body style="${STYLE.body}">`,
    `<h1 style="${STYLE.h1}">${htmlText(report.title)}</h1>`,
    `<p style="${STYLE.lines}">${htmlText(sidesLine(report))}</p>`,
    `<h2 style="${STYLE.h2}">Functions whose share of samples grew most</h2>`,
    ...renderHtmlTable(grownFramesTable(report.grown)),
    `<h2 style="${STYLE.h2}">Differential flame graph</h2>`,
    // The SVG is the renderer's own markup: every name in it is escaped there.
    flameGraphSvg,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
