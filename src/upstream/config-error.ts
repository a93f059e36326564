import type { z } from 'zod';
import { showValue, valueAt } from '../config/index.js';
import { InputError } from '../errors.js';
import { redactUrl } from '../log/index.js';

const KEYS = {
  git:
    'name, kind, remote, flavor, series, build_profile, server_profile, ' +
    'include, exclude, min_version, base, budget_minutes, patches',
  tarball:
    'name, kind, index, file, flavor, series, server_profile, include, exclude, min_version, base, budget_minutes',
  source:
    'name, kind, index, file, flavor, series, build_profile, server_profile, include, exclude, min_version, base, ' +
    'budget_minutes, patches',
} as const;

/**
 * An upstream entry of the config that does not validate: one line naming the upstream, each bad field, its value and
 * the fix.
 */
export class UpstreamConfigError extends InputError {
  constructor(
    readonly upstream: string,
    readonly problems: readonly string[],
  ) {
    super(`upstream ${upstream}: ${problems.join('; ')}`);
    this.name = new.target.name;
  }

  static fromIssues(
    input: unknown,
    issues: readonly z.core.$ZodIssue[],
    kind: keyof typeof KEYS = 'git',
  ): UpstreamConfigError {
    return new UpstreamConfigError(
      label(input),
      issues.map((issue) => describe(input, issue, KEYS[kind])),
    );
  }
}

function label(input: unknown): string {
  const name = isRecord(input) ? input['name'] : undefined;
  return typeof name === 'string' && name !== '' ? JSON.stringify(name) : '(unnamed)';
}

function describe(input: unknown, issue: z.core.$ZodIssue, keys: string): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}: the keys are ${keys}`;
  if (issue.path.length === 0) return `expected a map with the keys ${keys}`;
  const field = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .slice(1);
  return `${field} = ${showValue(shownValue(valueAt(input, issue.path)))}: ${issue.message}`;
}

/** A remote or an index as it may be shown: its user part found by parsing the URL and hidden, whatever it holds. */
function shownValue(value: unknown): unknown {
  return typeof value === 'string' ? redactUrl(value) : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
