import { z } from 'zod';
import { FLAVORS } from '../version/index.js';

/** The CMake generators qpswatch drives: both ship with Debian (make in build-essential, ninja-build). */
export const GENERATORS = ['Unix Makefiles', 'Ninja'] as const;
export type Generator = (typeof GENERATORS)[number];

/** `-DNAME=value` or `-DNAME:TYPE=value`; the value may hold spaces (it is one argv element, never shell text). */
export const CMAKE_FLAG_RE = /^-D([A-Za-z_][A-Za-z0-9_]*)(?::[A-Z]+)?=/;
const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

// A NUL cannot travel in argv or the environment; a line break would hide a second flag in logs.
const noControl = (s: string): boolean => !/[\r\n\0]/.test(s);

const CmakeFlag = z
  .string({ error: 'is not text' })
  .regex(CMAKE_FLAG_RE, 'is not a -DNAME=value flag')
  .refine(noControl, 'contains a line break or NUL');

const EnvValue = z
  .string({ error: 'is not text (quote numbers: "2")' })
  .refine(noControl, 'contains a line break or NUL');

const CmakeFlags = z.array(CmakeFlag, { error: 'is not a list of -DNAME=value flags' }).default([]);
const Env = z
  .record(z.string().regex(ENV_NAME_RE, 'is not an environment variable name'), EnvValue, {
    error: 'is not a map of NAME: value',
  })
  .default({});
/** Patch files applied (git apply) to every tag's worktree before cmake; relative to the profile's folder. */
const Patches = z
  .array(
    z.string({ error: 'is not a file path' }).min(1, 'is empty').refine(noControl, 'contains a line break or NUL'),
    {
      error: 'is not a list of patch files',
    },
  )
  .default([]);
// Debian package names (Debian policy 5.6.1): lower-case letters, digits, + - and ., starting with a letter or digit.
const Packages = z
  .array(
    z.string({ error: 'is not a package name' }).regex(/^[a-z0-9][a-z0-9+.-]{1,99}$/, 'is not a Debian package name'),
    {
      error: 'is not a list of Debian package names',
    },
  )
  .default([]);

/** What a build of the versions (and flavors) an override names adds to the profile's base. */
const Override = z.strictObject({
  versions: z.string({ error: 'is not a version range' }),
  flavors: z
    .array(z.enum(FLAVORS, { error: `is not a flavor (${FLAVORS.join(', ')})` }))
    .min(1)
    .optional(),
  cmake_flags: CmakeFlags,
  env: Env,
  patches: Patches,
  packages: Packages,
});

/** A build profile file as written: config/build-profiles/<name>.yaml. */
export const BuildProfileFileSchema = z.strictObject({
  description: z.string({ error: 'is missing or not text' }).min(1, 'is empty'),
  generator: z.enum(GENERATORS, { error: 'is not a known CMake generator' }).default('Unix Makefiles'),
  cmake_flags: CmakeFlags,
  env: Env,
  jobs: z
    .number({ error: 'is not a number' })
    .int('is not a whole number')
    .min(1, 'is below 1')
    .max(1024, 'is above 1024')
    .optional(),
  ccache: z.boolean({ error: 'is not true or false' }).default(false),
  timeout_minutes: z
    .number({ error: 'is not a number' })
    .positive('is not above 0')
    .max(7 * 24 * 60, 'is above a week')
    .default(240),
  patches: Patches,
  /** Debian packages a build needs (headers, bison): checked before configure, installed with apt-get when allowed. */
  packages: Packages,
  /** Version ranges whose builds need more: flags, environment, patches, packages (in file order). */
  overrides: z.array(Override, { error: 'is not a list of overrides' }).default([]),
});
export type BuildProfileFile = z.infer<typeof BuildProfileFileSchema>;

/** What to do about a bad field, by the first named part of its path. */
const FIXES: Record<string, string> = {
  description: 'write one line that says what the profile is for',
  generator: `use one of: ${GENERATORS.map((g) => `"${g}"`).join(', ')} (or leave it out for "Unix Makefiles")`,
  cmake_flags: 'write each flag as one list item "-DNAME=value", e.g. - -DCMAKE_BUILD_TYPE=RelWithDebInfo',
  env: 'write environment variables as NAME: "value", e.g. CC: gcc-12',
  jobs: 'write a whole number of parallel compile jobs, or leave it out to use every CPU',
  ccache: 'write true or false',
  timeout_minutes: 'write the longest a whole build may take, in minutes, e.g. 240',
  patches:
    'write each patch file as one list item, a path relative to the ' +
    "profile's folder or absolute, e.g. - fix-bug-1234.patch",
  packages: 'write each Debian package as one list item, e.g. - libfmt-dev',
  versions: 'write a range such as ">=10.11" or a series such as "10.5"',
  flavors: `list flavors from ${FLAVORS.join(', ')}, or leave flavors out to match every flavor`,
  overrides:
    'an override has the keys versions, flavors (optional), cmake_flags, env, patches and packages, ' +
    'e.g. - { versions: ">=10.11", cmake_flags: [-DWITH_LIBFMT=system], packages: [libfmt-dev] }',
  '':
    'the top-level keys are description, generator, cmake_flags, env, jobs, ccache, timeout_minutes, patches, ' +
    'packages and overrides',
};

export function fixFor(path: readonly PropertyKey[]): string {
  const named = path.filter((p): p is string => typeof p === 'string');
  // Inside an override, its own key says what is wrong (overrides[0].cmake_flags is about flags).
  const key = named[0] === 'overrides' && named.length > 1 ? named[1]! : (named[0] ?? '');
  return FIXES[key] ?? FIXES['']!;
}
