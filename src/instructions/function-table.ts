import type { FunctionCost } from '../model/index.js';
import type { CountedFunction } from './callgrind-output.js';

/** Functions under this share of a run's instructions (inclusive) are left out of a stored table: 1 in 10,000. */
export const MIN_FUNCTION_SHARE = 1e-4;

/**
 * A run's function table per query: each function's inclusive and exclusive instructions divided by the run's
 * queries, largest inclusive first, without the functions whose inclusive count is under minShare of the run's
 * instructions (a few hundred of the thousand or so a run names are left), and without those that executed none of
 * the counted instructions themselves: the dispatcher's callers (do_command, the connection handler), outside the
 * counted region, whose inclusive count is the whole run's and would lead every table of growth.
 */
export function perQueryFunctions(
  functions: readonly CountedFunction[],
  instructions: number,
  queries: number,
  minShare = MIN_FUNCTION_SHARE,
): FunctionCost[] {
  if (queries <= 0) return [];
  return functions
    .filter((f) => f.self > 0 && f.inclusive >= instructions * minShare)
    .sort((a, b) => b.inclusive - a.inclusive || b.self - a.self)
    .map((f) => ({ name: f.name, object: f.object, inclusive: f.inclusive / queries, exclusive: f.self / queries }));
}
