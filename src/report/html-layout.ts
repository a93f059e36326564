import type { Block } from './document.js';
import { renderHtmlChart } from './html-chart.js';
import { htmlText } from './html-escape.js';
import { renderFlameGraphSvg } from './flame-graph.js';
import { STYLE } from './html-style.js';
import { renderHtmlTrend } from './html-trend.js';
import type { Align, CellTone, Table } from './table.js';
import { renderHeadline, renderVerdictRows } from './html-verdicts.js';
import { TONE_CELL_STYLES } from './tones.js';

function cell(tag: 'th' | 'td', text: string, align: Align, tone?: CellTone): string {
  const base = tag === 'th' ? STYLE.th : STYLE.td;
  const toned = tone !== undefined && TONE_CELL_STYLES[tone] !== '' ? `;${TONE_CELL_STYLES[tone]}` : '';
  // The align attribute as well as the style: older Outlook versions honour only the attribute.
  return `<${tag} align="${align}" style="${base};text-align:${align}${toned}">${htmlText(text)}</${tag}>`;
}

/**
 * A table with inline styles; a column the Table aligns right (numbers) is right-aligned, header included; a toned
 * cell gets its tone's background (tones.ts).
 */
export function renderHtmlTable(table: Table): string[] {
  const header = table.columns.map((column) => cell('th', column.header, column.align)).join('');
  const rows = table.rows.map(
    (row, r) =>
      `<tr>${table.columns
        .map((column, index) => cell('td', row[index] ?? '', column.align, table.tones?.[r]?.[index]))
        .join('')}</tr>`,
  );
  return [
    `<table cellpadding="0" cellspacing="0" border="0" style="${STYLE.table}">`,
    `<thead><tr>${header}</tr></thead>`,
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
  ];
}

function renderBlock(block: Block): string[] {
  switch (block.kind) {
    case 'heading': {
      const tag = block.level === 1 ? 'h1' : 'h2';
      return [`<${tag} style="${STYLE[tag]}">${htmlText(block.text)}</${tag}>`];
    }
    case 'headline':
      return [renderHeadline(block.parts, block.lead)];
    case 'lines':
      return [`<p style="${STYLE.lines}">${block.lines.map(htmlText).join('<br>\n')}</p>`];
    case 'verdicts':
      return renderVerdictRows(block.rows);
    case 'table':
      return renderHtmlTable(block.table);
    case 'chart':
      return renderHtmlChart(block);
    case 'trend':
      return renderHtmlTrend(block);
    case 'flame-graph':
      // The renderer's own markup: every frame name in it is escaped there, and it holds no script.
      return [renderFlameGraphSvg(block.graph).trimEnd()];
  }
}

/**
 * A complete, self-contained HTML5 document: inline styles only, no script, no external resource, so it reads the
 * same saved to a file, opened offline, or sent as the HTML part of an email. Every piece of text is escaped.
 */
export function renderHtmlDocument(title: string, blocks: readonly Block[]): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${htmlText(title)}</title>`,
    '</head>',
    `<body style="${STYLE.body}">`,
    ...blocks.flatMap(renderBlock),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
