import type { Table } from './table.js';

/**
 * A report as a list of blocks, independent of the output format: builders say what to show, the text and
 * markdown layouts say how. A history report is another builder over the same blocks.
 */
export type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  /** short facts, one per line (a bullet list in markdown) */
  | { kind: 'lines'; lines: readonly string[] }
  | { kind: 'table'; table: Table };
