import { renderTextChart } from './chart-text.js';
import { renderTextTrend } from './trend-text.js';
import type { Block, ChartBlock } from './document.js';
import { alignedRows, cellWidth, type Table } from './table.js';
import { FLAME_GRAPH_NOTE } from './text-layout.js';

/**
 * Escapes what GitHub markdown would otherwise interpret inside a line or table cell. "_" is left alone between
 * letters or digits (GFM never reads it as emphasis there), so counter names like Innodb_rows_read stay readable.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n|[\r\n]/g, ' ')
    .replace(/[\\`*|<>[\]~&#]/g, (char) => `\\${char}`)
    .replace(/_/g, (char, offset: number, whole: string) =>
      /[\p{L}\p{N}]/u.test(whole.charAt(offset - 1)) && /[\p{L}\p{N}]/u.test(whole.charAt(offset + 1))
        ? char
        : `\\${char}`,
    );
}

// GFM needs at least three dashes in each delimiter cell.
const MIN_CELL_WIDTH = 3;

export function renderMarkdownTable(table: Table): string[] {
  const [header = [], ...body] = alignedRows(table, escapeMarkdown, MIN_CELL_WIDTH);
  const delimiter = table.columns.map((column, index) => {
    const width = cellWidth(header[index] ?? '');
    return column.align === 'right' ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width);
  });
  return [header, delimiter, ...body].map((row) => `| ${row.join(' | ')} |`);
}

/** The text chart in a fenced code block; the fence is longer than any run of backticks in a label (CommonMark). */
export function renderMarkdownChart(chart: ChartBlock): string[] {
  const lines = renderTextChart(chart);
  const longestRun = Math.max(0, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return [fence, ...lines, fence];
}

function renderBlock(block: Block): string[] {
  switch (block.kind) {
    case 'heading':
      return [`${'#'.repeat(block.level)} ${escapeMarkdown(block.text)}`];
    case 'headline':
      return [`${block.lead !== undefined ? `${escapeMarkdown(block.lead)} ` : ''}**${escapeMarkdown(block.text)}**`];
    case 'lines':
      return block.lines.map((line) => `- ${escapeMarkdown(line)}`);
    case 'verdicts':
      return block.rows.map((row) => `- ${escapeMarkdown(row.line)}`);
    case 'table':
      return renderMarkdownTable(block.table);
    case 'chart':
      return renderMarkdownChart(block);
    case 'trend':
      return renderTextTrend(block).map((line, index) =>
        index === 0 ? escapeMarkdown(line) : `- ${escapeMarkdown(line)}`,
      );
    case 'flame-graph':
      return [escapeMarkdown(FLAME_GRAPH_NOTE)];
  }
}

/** Blocks separated by one blank line; the result ends with a newline. */
export function renderMarkdownDocument(blocks: readonly Block[]): string {
  return `${blocks.map((block) => renderBlock(block).join('\n')).join('\n\n')}\n`;
}
