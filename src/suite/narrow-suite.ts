import { InputError } from '../errors.js';
import type { Suite } from './suite.js';

/** A test name the suite does not have. */
export class UnknownSuiteTestError extends InputError {
  constructor(
    readonly test: string,
    readonly suite: string,
    readonly known: readonly string[],
  ) {
    super(`test ${JSON.stringify(test)} is not in suite ${suite}: use one of ${known.join(', ')}`);
  }
}

/**
 * The suite with only the named tests (a bisection runs only the regressed ones): its levels keep those tests and
 * the levels left without a test go, with the data sets only they used. A name may carry a level's ".tN" suffix
 * ("update-index.t1"), which is dropped: the test runs at every level of the suite it ran at.
 */
export function narrowSuite(suite: Suite, names: readonly string[]): Suite {
  const known = [...new Set(suite.tests.map((t) => t.name))];
  const wanted = new Set(names.map((n) => n.replace(/\.t\d+$/, '')));
  for (const name of wanted) if (!known.includes(name)) throw new UnknownSuiteTestError(name, suite.name, known);
  const tests = suite.tests.filter((t) => wanted.has(t.name));
  const levels = suite.levels
    .map((l) => ({ ...l, tests: l.tests.filter((t) => wanted.has(t)) }))
    .filter((l) => l.tests.length > 0);
  const used = new Set(tests.map((t) => t.load.database));
  const loads = suite.loads.filter((l) => used.has(l.database));
  return { ...suite, tests, levels, loads, load: loads[0]! };
}
