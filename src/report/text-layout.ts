import type { Block } from './document.js';
import { alignedRows, cellWidth, type Table } from './table.js';

const COLUMN_GAP = '  ';

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Names are data: a newline or control character in one must not break the layout, so it is shown escaped. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

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
  }
}

/** Blocks separated by one blank line; the result ends with a newline. */
export function renderTextDocument(blocks: readonly Block[]): string {
  return `${blocks.map((block) => renderBlock(block).join('\n')).join('\n\n')}\n`;
}
