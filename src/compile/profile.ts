import { dirname, join, resolve } from 'node:path';
import { listNamedFiles, parseYamlFile, loadNamedProfile } from '../config/index.js';
import { projectRoot } from '../paths.js';
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
  checkFlags(source, file.cmake_flags);
  checkEnv(source, file.env);
  return toProfile(file, name, source);
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
    ...(file.jobs !== undefined ? { jobs: file.jobs } : {}),
  };
}

/** A variable set twice is a typo waiting to bite (the last one wins in cmake); owned ones are qpswatch's. */
function checkFlags(source: string, flags: readonly string[]): void {
  const seen = new Map<string, number>();
  flags.forEach((flag, i) => {
    const variable = cmakeFlagName(flag);
    const owned = OWNED_FLAGS[variable];
    if (owned !== undefined)
      throw new BuildProfileError(
        source,
        `cmake_flags[${i}]`,
        flag,
        `sets ${variable}, which qpswatch sets itself`,
        owned,
      );
    const earlier = seen.get(variable);
    if (earlier !== undefined) {
      throw new BuildProfileError(
        source,
        `cmake_flags[${i}]`,
        flag,
        `sets ${variable} again (also cmake_flags[${earlier}])`,
        'keep one flag per variable',
      );
    }
    seen.set(variable, i);
  });
}

function checkEnv(source: string, env: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(env)) {
    if (OWNED_ENV.includes(name)) {
      throw new BuildProfileError(
        source,
        `env.${name}`,
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
