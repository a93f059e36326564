import { dirname, join, resolve } from 'node:path';
import { listNamedFiles, parseYamlFile, loadNamedProfile } from '../config/index.js';
import { projectRoot } from '../paths.js';
import {
  parseVersionRange,
  rangeIncludes,
  VersionRangeError,
  type Flavor,
  type Version,
  type VersionRange,
} from '../version/index.js';
import { BuildProfileError } from './errors.js';
import {
  BuildProfileFileSchema,
  CMAKE_FLAG_RE,
  fixFor,
  type BuildProfileFile,
  type Generator,
} from './profile-schema.js';

/** How to build a release: cmake generator and flags, compiler environment, parallelism, ccache, time limit. */
export interface BuildProfile {
  readonly name: string;
  /** The file it came from: error messages name it. */
  readonly source: string;
  readonly description: string;
  readonly generator: Generator;
  /** `-DNAME=value` each; `{cache_dir}` in a value stands for qpswatch's cache folder (see expandCmakeFlags). */
  readonly cmakeFlags: readonly string[];
  /** Set on top of exec's small default environment for every cmake step. */
  readonly env: Readonly<Record<string, string>>;
  /** Undefined: every CPU of the host. */
  readonly jobs?: number;
  readonly ccache: boolean;
  readonly timeoutMinutes: number;
  /**
   * Absolute paths of patch files applied in this order to every tag's worktree before configure. Their contents
   * (sha256), not their paths, are part of the build key (buildKey's patches).
   */
  readonly patches: readonly string[];
  /** Debian packages the build needs: checked before configure (ensureBuildPackages). */
  readonly packages: readonly string[];
  /**
   * What builds of some versions need on top (profileFor applies them): a release tree that would download a library
   * at build time gets the system's, a flag only a series knows is given to that series alone.
   */
  readonly overrides: readonly BuildProfileOverride[];
}

/** Flags, environment, patches and packages for the versions (and flavors) it names, applied in file order. */
export interface BuildProfileOverride {
  readonly versions: VersionRange;
  /** Undefined: every flavor (MariaDB and MySQL version numbers overlap, so a MySQL-only override says so). */
  readonly flavors?: readonly Flavor[];
  readonly cmakeFlags: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absolute, as the profile's own. */
  readonly patches: readonly string[];
  readonly packages: readonly string[];
}

/** What a profile is resolved for: the release being built. */
export interface BuildTarget {
  readonly flavor: Flavor;
  readonly version: Version;
}

/** CMake variables qpswatch sets itself: the install folder is the build key's, the launcher follows `ccache`. */
const OWNED_FLAGS: Record<string, string> = {
  CMAKE_INSTALL_PREFIX: 'qpswatch installs every build under builds/<key>/install; remove the flag',
  CMAKE_C_COMPILER_LAUNCHER: 'set ccache: true instead of the flag',
  CMAKE_CXX_COMPILER_LAUNCHER: 'set ccache: true instead of the flag',
};
/** ccache's folders are qpswatch's: the cache lives under the cache directory, the base folder follows the build. */
const OWNED_ENV = ['CCACHE_DIR', 'CCACHE_BASEDIR'];

/** The profiles shipped with qpswatch. */
export function shippedBuildProfileDir(): string {
  return join(projectRoot, 'config', 'build-profiles');
}

export function listBuildProfiles(dir: string = shippedBuildProfileDir()): Promise<string[]> {
  return listNamedFiles(dir);
}

export function loadBuildProfile(name: string, dir: string = shippedBuildProfileDir()): Promise<BuildProfile> {
  return loadNamedProfile(dir, name, 'build profile', BuildProfileError, parseBuildProfile);
}

/** Parses and checks a profile's YAML text; `source` names it in errors. */
export function parseBuildProfile(text: string, name: string, source: string): BuildProfile {
  const file = parseYamlFile(
    text,
    BuildProfileFileSchema,
    (p) =>
      new BuildProfileError(
        source,
        p.field,
        p.value,
        p.problem,
        p.kind === 'syntax' ? 'fix the YAML syntax' : fixFor(p.path),
      ),
  );
  checkFlags(source, 'cmake_flags', file.cmake_flags);
  checkEnv(source, 'env', file.env);
  file.overrides.forEach((o, i) => {
    checkFlags(source, `overrides[${i}].cmake_flags`, o.cmake_flags);
    checkEnv(source, `overrides[${i}].env`, o.env);
  });
  return toProfile(file, name, source);
}

/**
 * The profile as a build of `target` uses it: each override whose versions (and flavors) include the target, in file
 * order, replaces the base's flag for the same cmake variable in place (or adds it), sets its environment variables,
 * and appends its patches and packages. The result has no overrides left; its flags, environment and patches are what
 * the build key hashes, so a version no override names keeps the key it always had.
 */
export function profileFor(profile: BuildProfile, target: BuildTarget): BuildProfile {
  const flags = new Map(profile.cmakeFlags.map((flag) => [cmakeFlagName(flag), flag]));
  let env = { ...profile.env };
  const patches = [...profile.patches];
  const packages = [...profile.packages];
  for (const o of profile.overrides.filter((o) => overrideApplies(o, target))) {
    for (const flag of o.cmakeFlags) flags.set(cmakeFlagName(flag), flag);
    env = { ...env, ...o.env };
    patches.push(...o.patches);
    for (const p of o.packages) if (!packages.includes(p)) packages.push(p);
  }
  return { ...profile, cmakeFlags: [...flags.values()], env, patches, packages, overrides: [] };
}

export function overrideApplies(override: BuildProfileOverride, target: BuildTarget): boolean {
  if (override.flavors !== undefined && !override.flavors.includes(target.flavor)) return false;
  return rangeIncludes(override.versions, target.version);
}

/** Every patch the profile may apply, whatever the version: what `config check` reads. */
export function allProfilePatches(profile: BuildProfile): string[] {
  return [...profile.patches, ...profile.overrides.flatMap((o) => o.patches)];
}

function toProfile(file: BuildProfileFile, name: string, source: string): BuildProfile {
  return {
    name,
    source,
    description: file.description,
    generator: file.generator,
    cmakeFlags: file.cmake_flags,
    env: file.env,
    ccache: file.ccache,
    timeoutMinutes: file.timeout_minutes,
    // Relative to the profile's own folder, as a suite's scripts are to the suite file's.
    patches: file.patches.map((patch) => resolve(dirname(source), patch)),
    packages: file.packages,
    overrides: file.overrides.map((o, i) => ({
      versions: overrideRange(source, i, o.versions),
      ...(o.flavors !== undefined ? { flavors: o.flavors } : {}),
      cmakeFlags: o.cmake_flags,
      env: o.env,
      patches: o.patches.map((patch) => resolve(dirname(source), patch)),
      packages: o.packages,
    })),
    ...(file.jobs !== undefined ? { jobs: file.jobs } : {}),
  };
}

function overrideRange(source: string, i: number, text: string): VersionRange {
  try {
    return parseVersionRange(text);
  } catch (err) {
    if (!(err instanceof VersionRangeError)) throw err;
    throw new BuildProfileError(
      source,
      `overrides[${i}].versions`,
      text,
      `${err.reason} (at "${err.part}")`,
      'write a range such as ">=10.11" or a series such as "10.5"',
    );
  }
}

/** A variable set twice is a typo waiting to bite (the last one wins in cmake); owned ones are qpswatch's. */
function checkFlags(source: string, field: string, flags: readonly string[]): void {
  const seen = new Map<string, number>();
  flags.forEach((flag, i) => {
    const variable = cmakeFlagName(flag);
    const owned = OWNED_FLAGS[variable];
    if (owned !== undefined)
      throw new BuildProfileError(
        source,
        `${field}[${i}]`,
        flag,
        `sets ${variable}, which qpswatch sets itself`,
        owned,
      );
    const earlier = seen.get(variable);
    if (earlier !== undefined) {
      throw new BuildProfileError(
        source,
        `${field}[${i}]`,
        flag,
        `sets ${variable} again (also ${field}[${earlier}])`,
        'keep one flag per variable',
      );
    }
    seen.set(variable, i);
  });
}

function checkEnv(source: string, field: string, env: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(env)) {
    if (OWNED_ENV.includes(name)) {
      throw new BuildProfileError(
        source,
        `${field}.${name}`,
        env[name],
        'is set by qpswatch when ccache is on',
        `remove ${name}; the cache lives under the cache directory`,
      );
    }
  }
}

/** The variable a `-DNAME[:TYPE]=value` flag sets. */
export function cmakeFlagName(flag: string): string {
  const m = CMAKE_FLAG_RE.exec(flag);
  if (m === null) throw new TypeError(`not a -DNAME=value flag: ${flag}`);
  return m[1]!;
}

/**
 * Fills in `{cache_dir}`: large downloads a build needs every time (MySQL's boost: -DWITH_BOOST={cache_dir}/boost)
 * live in qpswatch's cache folder, which the profile does not know. The build key hashes the flags as written.
 */
export function expandCmakeFlags(flags: readonly string[], cacheDir: string): string[] {
  return flags.map((flag) => flag.replaceAll('{cache_dir}', cacheDir));
}
