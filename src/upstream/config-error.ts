import type { z } from 'zod';
import { showValue, valueAt } from '../config/index.js';
import { InputError } from '../errors.js';

const KEYS = 'name, remote, flavor, series, build_profile, server_profile, include, exclude, min_version';

/** An upstream entry of the config that does not validate: one line naming the upstream, each bad field, its value and the fix. */
export class UpstreamConfigError extends InputError {
  constructor(
    readonly upstream: string,
    readonly problems: readonly string[],
  ) {
    super(`upstream ${upstream}: ${problems.join('; ')}`);
    this.name = new.target.name;
  }

  static fromIssues(input: unknown, issues: readonly z.core.$ZodIssue[]): UpstreamConfigError {
    return new UpstreamConfigError(label(input), issues.map((issue) => describe(input, issue)));
  }
}

function label(input: unknown): string {
  const name = isRecord(input) ? input['name'] : undefined;
  return typeof name === 'string' && name !== '' ? JSON.stringify(name) : '(unnamed)';
}

function describe(input: unknown, issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}: the keys are ${KEYS}`;
  if (issue.path.length === 0) return `expected a map with the keys ${KEYS}`;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').slice(1);
  return `${field} = ${showValue(valueAt(input, issue.path))}: ${issue.message}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
