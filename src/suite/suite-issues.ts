import type { z } from 'zod';

/** One line per zod issue: `<file>: <field> = <value>: <what is expected>`. */
export function describeIssue(file: string, raw: unknown, issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return `${file}: ${field === '' ? 'top level' : field}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  const value = valueAt(raw, issue.path);
  const shown = value === undefined ? '(missing)' : JSON.stringify(value);
  return `${file}: ${field === '' ? 'the file' : field} = ${shown}: ${issue.message}`;
}

/** `tests[2].threads[0]`, as a person would point at it in the file. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
