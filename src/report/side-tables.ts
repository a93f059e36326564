import type { PlanComparison, VariableComparison } from '../model/index.js';
import type { Block } from './document.js';
import { left, makeTable, type Column } from './table.js';

/** How many rows a section shows at most, and where the rest are (the email: `qpswatch show ID`). */
export interface RowLimit {
  limit: number;
  where: string;
}

/** A value longer than this is cut in a table cell (optimizer_switch lists are cut to their differing flags first). */
const VALUE_CHARS = 100;
/** A statement is cut to this many characters in a table cell: an IN-list of 100 placeholders says little more. */
const STATEMENT_CHARS = 80;

/**
 * The server variables that differ between B and C (SHOW GLOBAL VARIABLES after each side's first start), one row
 * each. No block for a session that kept no variables.
 */
export function variablesBlocks(variables: VariableComparison | undefined, more?: RowLimit): Block[] {
  if (variables === undefined) return [];
  const { compared, differences } = variables;
  return differenceBlocks({
    heading: 'Server variables that differ',
    none: `None: the ${compared} server variables are the same on both sides.`,
    lead:
      `${differences.length} of ${compared} differ (SHOW GLOBAL VARIABLES after start-up; the session's own paths ` +
      'and port left out):',
    columns: [left('variable'), left('B'), left('C')],
    rows: differences.map((d) => [d.name, valueCell(d.baseline), valueCell(d.candidate)]),
    ...(more !== undefined ? { more } : {}),
  });
}

/**
 * The statements whose plans differ between B and C (EXPLAIN FORMAT=JSON at each side's first start), one row each
 * with both plans in one line. No block for a session that kept no plans.
 */
export function plansBlocks(plans: PlanComparison | undefined, more?: RowLimit): Block[] {
  if (plans === undefined) return [];
  const { compared, differences } = plans;
  return differenceBlocks({
    heading: 'Plans that differ',
    none: `None: the ${compared} statements explained have the same plan on both sides.`,
    lead:
      `${differences.length} of ${compared} statements differ (EXPLAIN FORMAT=JSON after start-up; estimates ` +
      'left out):',
    columns: [left('test'), left('statement'), left('B'), left('C')],
    rows: differences.map((d) => [d.test, cut(d.statement, STATEMENT_CHARS), d.baseline, d.candidate]),
    ...(more !== undefined ? { more } : {}),
  });
}

/** A section of differences: its heading, then one line when there are none, else a lead line and the rows. */
function differenceBlocks(section: {
  heading: string;
  none: string;
  lead: string;
  columns: Column[];
  rows: string[][];
  more?: RowLimit;
}): Block[] {
  const heading: Block = { kind: 'heading', level: 2, text: section.heading };
  if (section.rows.length === 0) return [heading, { kind: 'lines', lines: [section.none] }];
  const shown = section.more === undefined ? section.rows : section.rows.slice(0, section.more.limit);
  const rest = section.rows.length - shown.length;
  return [
    heading,
    { kind: 'lines', lines: [section.lead] },
    { kind: 'table', table: makeTable(section.columns, shown) },
    ...(rest > 0 ? [{ kind: 'lines', lines: [`and ${rest} more: ${section.more!.where}`] } as const] : []),
  ];
}

function valueCell(value: string | undefined): string {
  if (value === undefined) return '(none)';
  if (value === '') return "''";
  return cut(value, VALUE_CHARS);
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
