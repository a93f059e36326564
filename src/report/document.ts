import type { VerdictKind } from '../model/index.js';
import type { FlameGraphInput } from './flame-graph.js';
import type { CellTone, Table } from './table.js';

/** How a bar reads: the verdict of its test, or neutral when nothing was judged. */
export type ChartTone = VerdictKind | 'neutral';

export interface ChartBar {
  label: string;
  /** a ratio such as relative QPS; a value that is not finite prints as "-" and draws no bar */
  value: number;
  tone: ChartTone;
  /**
   * false where the tone comes from the ratio alone (a history's medians): the bar keeps its colour, but no verdict's
   * word is printed beside it, since no test decided it
   */
  judged?: boolean;
  /** the interval around the value (drawn as a whisker in HTML); absent or null where there is none */
  low?: number | null;
  high?: number | null;
}

/** One count of a headline: "4 regressions", in the tone of its verdict. */
export interface HeadlinePart {
  text: string;
  tone: CellTone;
}

/** One judged test of a report's Verdicts section: its line in text, a row with a coloured verdict in HTML. */
export interface VerdictRow {
  label: string;
  kind: VerdictKind;
  /** The whole line, as text and markdown print it ("update-index.t1: regression, C/B 0.03 < 0.90, ..."). */
  line: string;
  /** The line after its label and verdict: what HTML shows beside the coloured verdict. */
  detail: string;
}

/**
 * A report as a list of blocks, independent of the output format: builders say what to show, the text and
 * markdown layouts say how. A history report is another builder over the same blocks.
 */
export type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  /**
   * the count of each verdict, worst first ("4 regressions, 3 unstable, 1 ok"), under a report's title or a lane's
   * heading: the whole text, and its parts each in its verdict's tone (badges in HTML, colours on a terminal);
   * `lead` says what is counted ("newest 10.11.9 against the base 10.2.30:"), printed before the counts
   */
  | { kind: 'headline'; text: string; parts: readonly HeadlinePart[]; lead?: string }
  /** one line per judged test (text), a table with each verdict coloured (HTML) */
  | { kind: 'verdicts'; rows: readonly VerdictRow[] }
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
