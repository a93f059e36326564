import { testLabel, type HistoryInstructions, type HistoryTest, type HistoryView } from '../model/index.js';
import type { Block } from './document.js';
import { versionCell } from './history-figures.js';
import { historyLevels, levelPhrase } from './history-levels.js';
import { INSTRUCTION_TONES, instructionCount, instructionRatio } from './instructions-table.js';
import { UNDEFINED_CELL } from './number-format.js';
import { left, makeTable, right, type CellTone, type Table } from './table.js';
import { byFamily } from './test-family.js';

/**
 * The instructions lane in a series' history: per version its instructions per query and the ratio to the base's
 * stored figure of the same conditions, directly (docs/verdicts.md, "Instructions per query"), for the tests the lane
 * counted (1 client thread).
 */

const hasLane = (row: HistoryTest): boolean => row.instructions !== undefined;

/** "43,990 (1.0312)"; the base's own "42,666 (base)"; the count alone where the base has none of its conditions. */
export function instructionsHistoryCell(cell: HistoryInstructions | null, isBase: boolean): string {
  if (cell === null) return UNDEFINED_CELL;
  const count = instructionCount(cell.perQuery);
  if (isBase) return `${count} (base)`;
  return cell.relativeToBase === null ? count : `${count} (${instructionRatio(cell.relativeToBase)})`;
}

/** A cell's colour: the lane's verdict against the base, ok left plain. */
function cellTone(cell: HistoryInstructions | null | undefined): CellTone | undefined {
  return cell?.verdict === null || cell?.verdict === undefined || cell.verdict === 'ok'
    ? undefined
    : INSTRUCTION_TONES[cell.verdict];
}

/** One row per version, one column per counted test of the level and family. */
export function historyInstructionsTable(view: HistoryView, tests: readonly HistoryTest[]): Table {
  const rows = view.versions.map((version, index) => [
    versionCell(version),
    ...tests.map((row) => instructionsHistoryCell(row.instructions?.[index] ?? null, index === view.baseIndex)),
  ]);
  const tones = view.versions.map((_, index) => [
    undefined,
    ...tests.map((row) => cellTone(row.instructions?.[index])),
  ]);
  return makeTable([left('version'), ...tests.map((row) => right(row.test))], rows, tones);
}

/**
 * One line per test whose newest counted version is an instructions regression against the base: drift, flagged
 * directly from the stored counts (no confirming session needed, unlike the QPS lane's chained estimate).
 */
export function historyInstructionDriftLines(view: HistoryView): string[] {
  return view.tests.filter(hasLane).flatMap((row) => {
    const cells = row.instructions!;
    let newest = cells.length - 1;
    while (newest >= 0 && cells[newest] === null) newest--;
    const cell = cells[newest];
    if (cell?.verdict !== 'regression' || cell.relativeToBase === null) return [];
    const bounds =
      cell.low !== null && cell.high !== null
        ? ` (repeats ${instructionRatio(cell.low)}-${instructionRatio(cell.high)})`
        : '';
    return [
      `${testLabel(row)}: ${instructionRatio(cell.relativeToBase)}${bounds} of the base's instructions per query ` +
        `at ${versionCell(view.versions[newest]!)}, past the instructions threshold`,
    ];
  });
}

const LEGEND =
  "instructions per query at 1 client thread (median of the repeats); in parentheses the ratio to the base's " +
  'stored count under the same conditions, directly (no chain); coloured by the verdict against the base';

/** The lane's tables, one per level and test family, its legend and its drift lines; nothing when none was counted. */
export function historyInstructionsBlocks(view: HistoryView): Block[] {
  const counted = view.tests.filter(hasLane);
  if (counted.length === 0) return [];
  const base = view.versions[view.baseIndex];
  const baseText = base === undefined ? UNDEFINED_CELL : versionCell(base);
  const tables = historyLevels(counted).flatMap((level): Block[] =>
    byFamily(
      counted.filter((row) => row.threads === level.threads && row.memory === level.memory),
      (row) => row.test,
    ).flatMap(({ family, items }): Block[] => [
      {
        kind: 'heading',
        level: 2,
        text: `Instructions per query at ${levelPhrase(level)}: ${family} (version / ${baseText})`,
      },
      { kind: 'table', table: historyInstructionsTable(view, items) },
    ]),
  );
  const drift = historyInstructionDriftLines(view);
  return [
    ...tables,
    { kind: 'lines', lines: [LEGEND] },
    ...(drift.length > 0
      ? [
          { kind: 'heading', level: 2, text: 'Instructions drift against the base' } as const,
          { kind: 'lines', lines: drift } as const,
        ]
      : []),
  ];
}

/** The lane's columns of the history CSV, after the others. */
export const HISTORY_INSTRUCTIONS_CSV = [
  'instructions_per_query',
  'instructions_spread',
  'instructions_repeats',
  'instructions_rel',
  'instructions_rel_low',
  'instructions_rel_high',
  'instructions_verdict',
] as const;

/** One version's lane cells of a history CSV record: empty where it was not counted, or has no ratio. */
export function historyInstructionsCells(cell: HistoryInstructions | null | undefined): (string | number)[] {
  if (cell === null || cell === undefined) return ['', '', '', '', '', '', ''];
  return [
    cell.perQuery,
    cell.spread,
    cell.repeats,
    cell.relativeToBase ?? '',
    cell.low ?? '',
    cell.high ?? '',
    cell.verdict ?? '',
  ];
}
