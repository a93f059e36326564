import { renderTextChart } from './chart-text.js';
import { renderTextTrend } from './trend-text.js';
import type { Block } from './document.js';
import { printable } from './printable.js';
import { alignedRows, cellWidth, type Table } from './table.js';
import { ansiTone } from './tones.js';

export { printable };

const COLUMN_GAP = '  ';

/** A flame graph is a picture: the text and markdown layouts say where to see it. */
export const FLAME_GRAPH_NOTE = 'The differential flame graph is drawn in the HTML report (--format html).';

/** How text is laid out: colour only for a terminal that wants it (stdout a terminal, NO_COLOR unset). */
export interface TextOptions {
  color?: boolean;
}

/**
 * A whitespace-separated table, columns aligned, no trailing spaces: easy to read and to paste into a sheet. With
 * colour, a toned cell is painted after it is padded, so the columns stay aligned.
 */
export function renderTextTable(table: Table, options: TextOptions = {}): string[] {
  const rows = alignedRows(table, printable);
  if (options.color !== true || table.tones === undefined) return rows.map((row) => row.join(COLUMN_GAP).trimEnd());
  return rows.map((row, r) =>
    row
      .map((cell, c) => (r === 0 ? cell : cell.replace(/\S(.*\S)?/, (t) => ansiTone(t, table.tones?.[r - 1]?.[c]))))
      .join(COLUMN_GAP)
      .trimEnd(),
  );
}

/** "4 regressions, 3 unstable, 1 ok", each count in its verdict's colour on a terminal. */
function headlineText(block: Extract<Block, { kind: 'headline' }>, options: TextOptions): string {
  const lead = block.lead !== undefined ? `${printable(block.lead)} ` : '';
  if (options.color !== true || block.parts.length === 0) return lead + printable(block.text);
  return lead + block.parts.map((part) => ansiTone(printable(part.text), part.tone)).join(', ');
}

function renderBlock(block: Block, options: TextOptions): string[] {
  switch (block.kind) {
    case 'heading': {
      const text = printable(block.text);
      return [text, (block.level === 1 ? '=' : '-').repeat(cellWidth(text))];
    }
    case 'headline':
      return [headlineText(block, options)];
    case 'lines':
      return block.lines.map(printable);
    case 'verdicts':
      return block.rows.map((row) => printable(row.line));
    case 'table':
      return renderTextTable(block.table, options);
    case 'chart':
      return renderTextChart(block);
    case 'trend':
      return renderTextTrend(block).map(printable);
    case 'flame-graph':
      return [FLAME_GRAPH_NOTE];
  }
}

/** Blocks separated by one blank line; the result ends with a newline. */
export function renderTextDocument(blocks: readonly Block[], options: TextOptions = {}): string {
  return `${blocks.map((block) => renderBlock(block, options).join('\n')).join('\n\n')}\n`;
}
