import type { PlanComparison, PlanDifference } from '../model/index.js';

/** One side's plan of one statement, as the store keeps it (StatementPlan): EXPLAIN's JSON, or the server's error. */
export type SidePlan = { test: string; statement: string } & ({ plan: unknown } | { error: string });

/**
 * Keys whose text repeats the statement (its conditions, its sort key): only whether they are there is the plan's;
 * their wording changes between releases.
 */
const TEXT_OF_THE_QUERY = new Set(['attached_condition', 'index_condition', 'sort_key', 'pushed_index_condition']);

/**
 * The plan without its estimates: numbers (rows, filtered, costs, key lengths, also when written as strings) are left
 * out, a condition becomes true, and what is left empty goes. Two plans with the same shape read the same tables the
 * same way.
 */
export function planShape(plan: unknown): unknown {
  if (typeof plan === 'number') return undefined;
  if (typeof plan === 'string') return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(plan) ? undefined : plan;
  if (Array.isArray(plan)) {
    const items = plan.map(planShape).filter((i) => i !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof plan === 'object' && plan !== null) {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(plan)) {
      const shape = TEXT_OF_THE_QUERY.has(key) && value !== undefined ? true : planShape(value);
      if (shape !== undefined) kept[key] = shape;
    }
    return Object.keys(kept).length > 0 ? kept : undefined;
  }
  return plan;
}

/**
 * A plan in one line: per table its name, access and key (`sbtest1 range k_1`), and what it does beside (index
 * condition, where, using index, filesort, temporary). MariaDB and MySQL both nest tables under "table" objects.
 */
export function planLine(plan: unknown): string {
  const parts: string[] = [];
  const visit = (node: unknown, key: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, key));
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (key === 'table' && typeof o['table_name'] === 'string') parts.push(tableLine(o));
    if (key === 'filesort' || o['using_filesort'] === true) parts.push('filesort');
    if (key === 'temporary_table' || o['using_temporary_table'] === true) parts.push('temporary');
    for (const [k, v] of Object.entries(o)) visit(v, k);
  };
  visit(plan, '');
  return parts.length > 0 ? parts.join(', ') : 'no table read';
}

function tableLine(table: Record<string, unknown>): string {
  const words = [String(table['table_name'])];
  if (typeof table['access_type'] === 'string') words.push(table['access_type']);
  if (typeof table['key'] === 'string') words.push(table['key']);
  if (table['index_condition'] !== undefined) words.push('+ index condition');
  if (table['attached_condition'] !== undefined) words.push('+ where');
  if (table['using_index'] === true) words.push('+ using index');
  return words.join(' ');
}

/**
 * The statements explained on both sides whose plan shapes differ (planShape), each plan in one line (planLine); when
 * the lines read the same, what else differs is said. A statement one side could not explain shows the server's error.
 */
export function compareStatementPlans(baseline: readonly SidePlan[], candidate: readonly SidePlan[]): PlanComparison {
  const key = (p: SidePlan): string => `${p.test}\u0000${p.statement}`;
  const theirs = new Map(candidate.map((p) => [key(p), p]));
  let compared = 0;
  const differences: PlanDifference[] = [];
  for (const b of baseline) {
    const c = theirs.get(key(b));
    if (c === undefined) continue;
    compared++;
    const [bShape, cShape] = [b, c].map((p) => JSON.stringify('plan' in p ? planShape(p.plan) : p.error));
    if (bShape === cShape) continue;
    let [bLine, cLine] = [b, c].map((p) => ('plan' in p ? planLine(p.plan) : `cannot explain: ${p.error}`));
    if (bLine === cLine) [bLine, cLine] = [`${bLine} (other detail differs)`, `${cLine} (other detail differs)`];
    differences.push({ test: b.test, statement: b.statement, baseline: bLine!, candidate: cLine! });
  }
  return { compared, differences };
}
