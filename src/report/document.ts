import type { VerdictKind } from '../model/index.js';
import type { FlameGraphInput } from './flame-graph.js';
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
  | { kind: 'chart'; title: string; bars: readonly ChartBar[]; references: readonly number[] }
  /** a line of ratios by version with their intervals, the threshold and the steps (HTML draws it; text lists it) */
  | { kind: 'trend'; title: string; points: readonly TrendPoint[]; threshold: number | null }
  /** a differential flame graph of two profiles (HTML draws it as an inline SVG; text and markdown name it) */
  | { kind: 'flame-graph'; graph: FlameGraphInput };

export type ChartBlock = Extract<Block, { kind: 'chart' }>;
export type TrendBlock = Extract<Block, { kind: 'trend' }>;

/** One version of a trend: its value (null: not measured), its interval (null: none, a median), a step that began. */
export interface TrendPoint {
  label: string;
  value: number | null;
  low: number | null;
  high: number | null;
  step: 'down' | 'up' | null;
}
