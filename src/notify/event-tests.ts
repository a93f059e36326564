import type { TestRow } from '../model/index.js';
import type { AlertContent } from './alert-content.js';
import { InvalidAlertError } from './errors.js';

/** The comparison rows of the event's tests, lowest relative QPS first (the worst leads the subject). */
export function eventRows(content: AlertContent): TestRow[] {
  if (content.tests.length === 0) throw new InvalidAlertError('tests', 'an alert needs at least one test');
  const rows = content.tests.map(({ test, threads }) => {
    const row = content.comparison.tests.find((r) => r.test === test && r.threads === threads);
    if (row === undefined)
      throw new InvalidAlertError(
        'tests',
        `${test} with ${threads} threads is not in session ${content.comparison.sessionId}`,
      );
    return row;
  });
  return rows.sort((a, b) => a.relativeQps - b.relativeQps);
}
