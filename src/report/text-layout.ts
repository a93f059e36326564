import { renderTextChart } from './chart-text.js';
import { renderTextTrend } from './trend-text.js';
import type { Block } from './document.js';
import { printable } from './printable.js';
import { alignedRows, cellWidth, type Table } from './table.js';

export { printable };

const COLUMN_GAP = '  ';

/** A flame graph is a picture: the text and markdown layouts say where to see it. */
export const FLAME_GRAPH_NOTE = 'The differential flame graph is drawn in the HTML report (--format html).';

/** A whitespace-separated table, columns aligned, no trailing spaces: easy to read and to paste into a sheet. */
export function renderTextTable(table: Table): string[] {
  return alignedRows(table, printable).map((row) => row.join(COLUMN_GAP).trimEnd());
}

function renderBlock(block: Block): string[] {
  switch (block.kind) {
    case 'heading': {
      const text = printable(block.text);
      return [text, (block.level === 1 ? '=' : '-').repeat(cellWidth(text))];
    }
    case 'lines':
      return block.lines.map(printable);
    case 'table':
      return renderTextTable(block.table);
    case 'chart':
      return renderTextChart(block);
    case 'trend':
      return renderTextTrend(block).map(printable);
    case 'flame-graph':
      return [FLAME_GRAPH_NOTE];
  }
}

/** Blocks separated by one blank line; the result ends with a newline. */
export function renderTextDocument(blocks: readonly Block[]): string {
  return `${blocks.map((block) => renderBlock(block).join('\n')).join('\n\n')}\n`;
}
