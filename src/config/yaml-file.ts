import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { valueAt } from './describe-issues.js';

/** The first thing wrong with a YAML file read through a schema, for the caller to wrap in its own typed error. */
export interface YamlProblem {
  kind: 'syntax' | 'unknown-key' | 'bad-key' | 'bad-value';
  /** Where in the file, as zod saw it (an unknown key's path is the map holding it). */
  path: readonly PropertyKey[];
  /** The path as a person reads it: settings.innodb_foo, cmake_flags[2]. */
  field: string;
  value: unknown;
  problem: string;
}

/** `a.b[2].c` */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

function describeIssue(raw: unknown, issue: z.core.$ZodIssue): YamlProblem {
  if (issue.code === 'unrecognized_keys') {
    const path = [...issue.path, issue.keys[0]!];
    return {
      kind: 'unknown-key',
      path: issue.path,
      field: formatPath(path),
      value: valueAt(raw, path),
      problem: 'is not a known key',
    };
  }
  if (issue.code === 'invalid_key') {
    return {
      kind: 'bad-key',
      path: issue.path,
      field: formatPath(issue.path),
      value: issue.path.at(-1),
      problem: `name ${issue.issues[0]?.message ?? 'is not valid'}`,
    };
  }
  return {
    kind: 'bad-value',
    path: issue.path,
    field: formatPath(issue.path),
    value: valueAt(raw, issue.path),
    problem: issue.message,
  };
}

/** Parses YAML text (an empty file is an empty map) and checks it with a schema; the first problem goes to `fail`. */
export function parseYamlFile<S extends z.ZodType>(
  text: string,
  schema: S,
  fail: (problem: YamlProblem) => Error,
): z.output<S> {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw fail({
      kind: 'syntax',
      path: [],
      field: '',
      value: undefined,
      problem: `is not valid YAML (${(err as Error).message.split('\n')[0]})`,
    });
  }
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw fail(describeIssue(raw, parsed.error.issues[0]!));
  return parsed.data;
}
