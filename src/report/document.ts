import type { VerdictKind } from '../model/index.js';
import type { Table } from './table.js';

/** How a bar reads: the verdict of its test, or neutral when nothing was judged. */
export type ChartTone = VerdictKind | 'neutral';

export interface ChartBar {
  label: string;
  /** a ratio such as relative QPS; a value that is not finite prints as "-" and draws no bar */
  value: number;
  tone: ChartTone;
}

/**
 * A report as a list of blocks, independent of the output format: builders say what to show, the text and
 * markdown layouts say how. A history report is another builder over the same blocks.
 */
export type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  /** short facts, one per line (a bullet list in markdown) */
  | { kind: 'lines'; lines: readonly string[] }
  | { kind: 'table'; table: Table }
  /** a horizontal bar chart of ratios, one bar per label, with reference lines (e.g. 1.0 and the threshold) */
  | { kind: 'chart'; title: string; bars: readonly ChartBar[]; references: readonly number[] };

export type ChartBlock = Extract<Block, { kind: 'chart' }>;
