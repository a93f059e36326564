import { z } from 'zod';
import { FLAVORS } from '../version/index.js';

/** my.cnf option names: letters, digits, - and _; "loose-" and "skip-" prefixes are just part of the name. */
export const OPTION_NAME_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;

const OptionName = z.string().regex(OPTION_NAME_RE, 'is not an option name');

// Values end up on one my.cnf line: a newline would smuggle in a second option.
const SettingValue = z.union(
  [z.string().refine((s) => !/[\r\n\0]/.test(s), 'contains a line break'), z.number(), z.boolean()],
  { error: 'is not a string, a number or true/false' },
);

const Settings = z.record(OptionName, SettingValue);

const Override = z.strictObject({
  versions: z.string({ error: 'is not a version range' }),
  flavors: z
    .array(z.enum(FLAVORS, { error: `is not a flavor (${FLAVORS.join(', ')})` }))
    .min(1)
    .optional(),
  set: Settings.default({}),
  remove: z.array(OptionName).default([]),
});

/** A server config profile file as written: config/server-profiles/<name>.yaml. */
export const ServerProfileFileSchema = z.strictObject({
  description: z.string({ error: 'is missing or not text' }).min(1, 'is empty'),
  settings: Settings.default({}),
  overrides: z.array(Override).default([]),
});
export type ServerProfileFile = z.infer<typeof ServerProfileFileSchema>;

/** What to do about a bad field, by the last named part of its path. */
const FIXES: Record<string, string> = {
  description: 'write one line that says what the profile is for',
  settings:
    'write my.cnf [mysqld] options as name: value, with a string, a number or true/false (true writes the bare name)',
  set:
    'write my.cnf [mysqld] options as name: value, with a string, a number ' +
    'or true/false (true writes the bare name)',
  remove: 'list option names to drop for these versions, e.g. remove: [query_cache_size]',
  versions: 'write a range such as ">=8.0.30 <8.1" or a series such as "10.11"',
  flavors: `list flavors from ${FLAVORS.join(', ')}, or leave flavors out to match every flavor`,
  overrides: 'an override has the keys versions, flavors (optional), set and remove',
  '': 'the top-level keys are description, settings and overrides',
};

export function fixFor(path: readonly PropertyKey[]): string {
  const named = path.filter((p): p is string => typeof p === 'string');
  // Below settings/set the path names an option, whose name may be anything.
  const options = named.find((p) => p === 'settings' || p === 'set');
  return FIXES[options ?? named.at(-1) ?? ''] ?? FIXES['']!;
}
