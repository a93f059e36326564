import { z } from 'zod';
import {
  FLAVORS,
  parseVersion,
  parseVersionRange,
  VersionRangeError,
  type Flavor,
  type Version,
  type VersionRange,
} from '../version/index.js';
import { addUrlForRedaction } from '../log/index.js';
import { UpstreamConfigError } from './config-error.js';
import { credentialProblem, isRemoteText } from './remote.js';

export const UPSTREAM_KINDS = ['git', 'tarball', 'source'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

/** An upstream ready to use: the config with its series and min_version parsed. */
export interface Upstream {
  readonly name: string;
  /**
   * git: release tags of a repository, built from source; tarball: the vendor's binary tarballs, downloaded; source:
   * the vendor's source tarballs, downloaded and built as a tag is.
   */
  readonly kind: UpstreamKind;
  /** Where releases come from: the git remote, or a tarball or source upstream's index URL. */
  readonly remote: string;
  /**
   * kind tarball or source: a glob on the tarball's file name (e.g. "*-linux-systemd-x86_64.tar.gz"); undefined: any.
   */
  readonly fileGlob?: string;
  readonly flavor: Flavor;
  readonly series: VersionRange;
  /** Globs on tag names ("*", "?"); when there are any, a release tag must match one. */
  readonly include: readonly string[];
  /** Globs on tag names; a release tag matching one is left out. */
  readonly exclude: readonly string[];
  readonly minVersion?: Version;
  /**
   * The build profile (config/build-profiles) its releases are built with; '' for a tarball upstream (nothing is
   * built; buildsFromSource says which kinds build).
   */
  readonly buildProfile: string;
  /**
   * Absolute paths of patch files applied to every tag's worktree before the build profile's own; none for a tarball
   * upstream.
   */
  readonly patches: readonly string[];
  /** The server config profile its releases run with. */
  readonly serverProfile: string;
  /** The fixed release reports and dashboards are relative to, as the reference studies fix an old one. */
  readonly base?: Version;
  /** Paired design: minutes a check of this upstream may spend on pairs, over the config's and the suite's. */
  readonly budgetMinutes?: number;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** A build or server profile's name, as a config and a TAG@PROFILE name it. */
export const PROFILE_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * YAML reads `series: 10.10` as the number 10.1 and `8.0` as 8, which would silently name another series:
 * numbers are refused with a message that says to quote them.
 */
function versionText(check: (text: string) => string | undefined, example: string) {
  return z
    .union([z.string(), z.number()], { error: `expected text, e.g. "${example}"` })
    .superRefine((value, ctx) => {
      const problem = typeof value === 'number' ? `YAML read a number here; quote it, e.g. "${example}"` : check(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform(String);
}

function seriesProblem(text: string): string | undefined {
  try {
    parseVersionRange(text);
    return undefined;
  } catch (err) {
    if (!(err instanceof VersionRangeError)) throw err;
    return `${err.reason} (at "${err.part}"); write a series such as "10.11" or a range such as ">=8.0.30 <8.1"`;
  }
}

function versionProblem(text: string): string | undefined {
  try {
    parseVersion(text);
    return undefined;
  } catch {
    return 'expected MAJOR.MINOR.PATCH with an optional -BUILD, e.g. "10.11.6" or "8.0.36-28"';
  }
}

const Glob = z
  .string({ error: 'expected a tag-name pattern (text; * is any run of characters, ? one character)' })
  .min(1, 'is empty; write a tag-name pattern such as "mariadb-10.11.*"')
  .max(200, 'is longer than 200 characters')
  .refine((g) => !CONTROL.test(g), 'contains a control character');

const PatchPath = z
  .string({ error: 'expected the absolute path of a patch file, e.g. "/etc/qpswatch/patches/fix.patch"' })
  .refine(
    (p) => p.startsWith('/') && !CONTROL.test(p),
    'expected the absolute path of a patch file, e.g. "/etc/qpswatch/patches/fix.patch"',
  );

const Name = z
  .string({ error: 'expected a name, e.g. "mariadb-10.11"' })
  .regex(
    NAME_RE,
    'expected 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "mariadb-10.11"',
  );

const BuildProfileName = z
  .string({ error: 'expected a build profile name, e.g. "mariadb-rel"' })
  .regex(PROFILE_RE, 'expected a build profile name, e.g. "mariadb-rel"');

/** Absolute: upstreams also come from QPSWATCH_UPSTREAMS, which has no folder to be relative to. */
const Patches = z
  .array(PatchPath, { error: 'expected a list of patch file paths, e.g. ["/etc/qpswatch/patches/fix.patch"]' })
  .optional();

const IndexUrl = z
  .string({ error: 'expected an http:// or https:// URL, e.g. "https://archive.mariadb.org/"' })
  .superRefine((index, ctx) => {
    const problem = isIndexUrl(index)
      ? credentialProblem(index)
      : 'expected an http:// or https:// URL: a folder listing ending in "/" ' +
        '(e.g. "https://archive.mariadb.org/") or a list file of "SHA256  URL" ' +
        'lines';
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** What every kind of upstream has: a flavor, a series, the release filters and a server profile. */
const common = {
  flavor: z.enum(FLAVORS, { error: `expected one of ${FLAVORS.join(', ')}` }),
  series: versionText(seriesProblem, '10.11'),
  include: z.array(Glob, { error: 'expected a list of tag-name patterns' }).optional(),
  exclude: z.array(Glob, { error: 'expected a list of tag-name patterns' }).optional(),
  min_version: versionText(versionProblem, '10.11.6').optional(),
  base: versionText(versionProblem, '10.11.1').optional(),
  server_profile: z
    .string({ error: 'expected a server profile name, e.g. "relaxed"' })
    .regex(PROFILE_RE, 'expected a server profile name, e.g. "relaxed"'),
  budget_minutes: z
    .number({ error: 'expected a number of minutes, e.g. 240' })
    .gt(0, 'expected a number of minutes greater than 0, e.g. 240')
    .max(10080, 'expected at most 10080 minutes (a week)')
    .optional(),
};

/** One entry of `upstreams:` in the config file, keys as written in YAML: a git repository (kind git, the default). */
export const UpstreamConfigSchema = z.strictObject({
  name: Name,
  kind: z.literal('git', { error: 'expected git, tarball or source' }).optional(),
  remote: z.string({ error: 'expected a git URL or an absolute path' }).superRefine((remote, ctx) => {
    const problem = isRemoteText(remote)
      ? credentialProblem(remote)
      : 'expected an https://, http://, git://, ssh:// or file:// URL, user@host:path, or an absolute path';
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
  ...common,
  build_profile: BuildProfileName,
  patches: Patches,
});
export type UpstreamConfig = z.output<typeof UpstreamConfigSchema>;

/**
 * An entry of kind tarball: the vendor's download index (a folder listing ending in "/", or a list file of checksums
 * and URLs).
 */
export const TarballUpstreamConfigSchema = z.strictObject({
  name: Name,
  kind: z.literal('tarball'),
  index: IndexUrl,
  file: Glob.optional(),
  ...common,
});
export type TarballUpstreamConfig = z.output<typeof TarballUpstreamConfigSchema>;

/**
 * An entry of kind source: the vendor's source tarballs (mariadb-10.11.9/source/mariadb-10.11.9.tar.gz in
 * archive.mariadb.org's layout, or a list file), each downloaded, verified, unpacked and built like a git tag.
 */
export const SourceUpstreamConfigSchema = z.strictObject({
  name: Name,
  kind: z.literal('source'),
  index: IndexUrl,
  file: Glob.optional(),
  ...common,
  build_profile: BuildProfileName,
  patches: Patches,
});
export type SourceUpstreamConfig = z.output<typeof SourceUpstreamConfigSchema>;

/** git and source upstreams build their releases with a build profile; tarball ones unpack the vendor's binaries. */
export function buildsFromSource(upstream: Pick<Upstream, 'kind'>): boolean {
  return upstream.kind !== 'tarball';
}

function isIndexUrl(text: string): boolean {
  if (CONTROL.test(text) || !/^https?:\/\/[^\s-]/.test(text)) return false;
  return URL.canParse(text);
}

/**
 * Validates one upstream as written in the config and parses its series and min_version. Its URL's user part is
 * given to the logger's redaction first, so no later line shows it, whatever characters it holds.
 */
export function parseUpstream(input: unknown): Upstream {
  for (const key of ['remote', 'index']) {
    const url = isRecord(input) ? input[key] : undefined;
    if (typeof url === 'string') addUrlForRedaction(url);
  }
  if (isRecord(input) && input['kind'] === 'tarball') return parseTarballUpstream(input);
  if (isRecord(input) && input['kind'] === 'source') return parseSourceUpstream(input);
  const parsed = UpstreamConfigSchema.safeParse(input);
  if (!parsed.success) throw UpstreamConfigError.fromIssues(input, parsed.error.issues);
  const c = parsed.data;
  return { ...parsedCommon(c), kind: 'git', remote: c.remote, buildProfile: c.build_profile, patches: c.patches ?? [] };
}

function parseTarballUpstream(input: Record<string, unknown>): Upstream {
  const parsed = TarballUpstreamConfigSchema.safeParse(input);
  if (!parsed.success) throw UpstreamConfigError.fromIssues(input, parsed.error.issues, 'tarball');
  const c = parsed.data;
  return {
    ...parsedCommon(c),
    kind: 'tarball',
    remote: c.index,
    buildProfile: '',
    patches: [],
    ...(c.file !== undefined ? { fileGlob: c.file } : {}),
  };
}

function parseSourceUpstream(input: Record<string, unknown>): Upstream {
  const parsed = SourceUpstreamConfigSchema.safeParse(input);
  if (!parsed.success) throw UpstreamConfigError.fromIssues(input, parsed.error.issues, 'source');
  const c = parsed.data;
  return {
    ...parsedCommon(c),
    kind: 'source',
    remote: c.index,
    buildProfile: c.build_profile,
    patches: c.patches ?? [],
    ...(c.file !== undefined ? { fileGlob: c.file } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type CommonConfig = Pick<
  UpstreamConfig,
  'name' | 'flavor' | 'series' | 'include' | 'exclude' | 'min_version' | 'server_profile' | 'base' | 'budget_minutes'
>;

function parsedCommon(c: CommonConfig): Omit<Upstream, 'kind' | 'remote' | 'buildProfile' | 'patches'> {
  return {
    name: c.name,
    flavor: c.flavor,
    series: parseVersionRange(c.series),
    include: c.include ?? [],
    exclude: c.exclude ?? [],
    ...(c.min_version !== undefined ? { minVersion: parseVersion(c.min_version) } : {}),
    serverProfile: c.server_profile,
    ...(c.base !== undefined ? { base: parseVersion(c.base) } : {}),
    ...(c.budget_minutes !== undefined ? { budgetMinutes: c.budget_minutes } : {}),
  };
}
