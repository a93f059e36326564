import type { PlanComparison, VariableComparison, VariableDifference } from '../model/index.js';
import type { Block } from './document.js';
import { left, makeTable } from './table.js';

/** A value longer than this is cut in a table cell (optimizer_switch lists are cut to their differing flags first). */
const VALUE_CHARS = 100;

function cell(value: string | undefined): string {
  if (value === undefined) return '(none)';
  if (value === '') return "''";
  return cut(value, VALUE_CHARS);
}

/**
 * The server variables that differ between B and C (SHOW GLOBAL VARIABLES after each side's first start), one row
 * each; `limit` rows at most, then a line that says how many more and where they are. No block for a session that
 * kept no variables.
 */
export function variablesBlocks(
  variables: VariableComparison | undefined,
  more?: { limit: number; where: string },
): Block[] {
  if (variables === undefined) return [];
  const heading: Block = { kind: 'heading', level: 2, text: 'Server variables that differ' };
  const { compared, differences } = variables;
  if (differences.length === 0)
    return [heading, { kind: 'lines', lines: [`None: the ${compared} server variables are the same on both sides.`] }];
  const shown: VariableDifference[] = more === undefined ? differences : differences.slice(0, more.limit);
  const lines = [
    `${differences.length} of ${compared} differ (SHOW GLOBAL VARIABLES after start-up; the session's own paths ` +
      'and port left out):',
  ];
  const table = makeTable(
    [left('variable'), left('B'), left('C')],
    shown.map((d) => [d.name, cell(d.baseline), cell(d.candidate)]),
  );
  const rest = differences.length - shown.length;
  const after: Block[] =
    rest > 0 && more !== undefined ? [{ kind: 'lines', lines: [`and ${rest} more: ${more.where}`] }] : [];
  return [heading, { kind: 'lines', lines }, { kind: 'table', table }, ...after];
}

/** A statement is cut to this many characters in a table cell: an IN-list of 100 placeholders says little more. */
const STATEMENT_CHARS = 80;

/**
 * The statements whose plans differ between B and C (EXPLAIN FORMAT=JSON at each side's first start), one row each
 * with both plans in one line; `limit` rows at most, as for the variables. No block for a session that kept no plans.
 */
export function plansBlocks(plans: PlanComparison | undefined, more?: { limit: number; where: string }): Block[] {
  if (plans === undefined) return [];
  const heading: Block = { kind: 'heading', level: 2, text: 'Plans that differ' };
  const { compared, differences } = plans;
  if (differences.length === 0)
    return [
      heading,
      { kind: 'lines', lines: [`None: the ${compared} statements explained have the same plan on both sides.`] },
    ];
  const shown = more === undefined ? differences : differences.slice(0, more.limit);
  const lines = [
    `${differences.length} of ${compared} statements differ (EXPLAIN FORMAT=JSON after start-up; estimates left out):`,
  ];
  const table = makeTable(
    [left('test'), left('statement'), left('B'), left('C')],
    shown.map((d) => [d.test, cut(d.statement, STATEMENT_CHARS), d.baseline, d.candidate]),
  );
  const rest = differences.length - shown.length;
  const after: Block[] =
    rest > 0 && more !== undefined ? [{ kind: 'lines', lines: [`and ${rest} more: ${more.where}`] }] : [];
  return [heading, { kind: 'lines', lines }, { kind: 'table', table }, ...after];
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
