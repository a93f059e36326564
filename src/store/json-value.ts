/**
 * Checks that a value survives a JSON round trip unchanged. JSON.stringify quietly turns NaN and Infinity into
 * null and drops functions, so a stored host usage or fingerprint would silently lie; this finds the first such
 * value and says where it is.
 */
export interface JsonProblem {
  path: string;
  value: unknown;
  expected: string;
}

export function findJsonProblem(value: unknown, path: string): JsonProblem | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { path, value, expected: 'expected a finite number' };
  }
  if (Array.isArray(value)) return findInArray(value, path);
  if (isPlainObject(value)) return findInObject(value, path);
  return { path, value, expected: 'expected JSON data (string, finite number, boolean, null, array, plain object)' };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function findInArray(items: readonly unknown[], path: string): JsonProblem | undefined {
  for (const [i, item] of items.entries()) {
    const problem = findJsonProblem(item, `${path}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function findInObject(obj: Record<string, unknown>, path: string): JsonProblem | undefined {
  for (const [key, item] of Object.entries(obj)) {
    // An undefined property is an absent optional field: JSON drops it and reading back gives undefined again.
    if (item === undefined) continue;
    const problem = findJsonProblem(item, `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}
