import type { z } from 'zod';
import { redactUrlCredentials } from '../log/index.js';

/**
 * Shows a value the way a person wrote it in YAML: quoted when text, cut to `maxLength` characters. A URL's user part
 * is hidden before the cut, so a cut can never leave half a token showing.
 */
export function showValue(value: unknown, maxLength = 60): string {
  if (value === undefined) return '(missing)';
  const text = redactUrlCredentials(JSON.stringify(value) ?? String(value));
  return text.length > maxLength ? `${text.slice(0, maxLength - 3)}...` : text;
}

/** The value at a zod issue's path inside the raw input, to show what was written. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function expectedText(issue: z.core.$ZodIssue, fallback: string | undefined): string {
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_type':
      return `expected ${fallback ?? issue.expected}`;
    default:
      return fallback !== undefined && issue.path.length <= 1 ? `expected ${fallback}` : issue.message;
  }
}

/**
 * Turns zod's issues into one line each: `<source>: <field> = <value>: <what is expected>`.
 * `expected` is the option table's wording for the option as a whole.
 */
export function describeIssues(
  source: string,
  field: string,
  raw: unknown,
  issues: readonly z.core.$ZodIssue[],
  expected?: string,
): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String);
    const where = [field, ...path].join('.');
    if (issue.code === 'unrecognized_keys') {
      return (
        `${source}: ${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ` +
        `${issue.keys.map((k) => `'${k}'`).join(', ')}`
      );
    }
    // A map's key that is refused: the key is what is wrong, so it is named (escaped), and its value is not shown.
    if (issue.code === 'invalid_key') {
      const key = JSON.stringify(String(issue.path.at(-1)));
      const parent = [field, ...path.slice(0, -1)].join('.');
      return `${source}: ${parent}: the key ${key} is refused: ${issue.issues[0]?.message ?? 'expected a name'}`;
    }
    const value = valueAt(raw, issue.path);
    return (
      `${source}: ${where} = ${showValue(value)}: ` + `${expectedText(issue, path.length === 0 ? expected : undefined)}`
    );
  });
}
