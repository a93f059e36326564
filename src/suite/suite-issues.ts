import { formatPath as fieldName, showValue, valueAt } from '../config/index.js';
import type { z } from 'zod';

/** One line per zod issue: `<file>: <field> = <value>: <what is expected>`. */
export function describeIssue(file: string, raw: unknown, issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return (
      `${file}: ${field === '' ? 'top level' : field}: unknown ` +
      `key${issue.keys.length > 1 ? 's' : ''} ` +
      `${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
    );
  }
  const value = valueAt(raw, issue.path);
  // Short, so a long text (a file that is no suite) is never printed back whole.
  const shown = showValue(value);
  return `${file}: ${field === '' ? 'the file' : field} = ${shown}: ${issue.message}`;
}
