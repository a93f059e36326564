import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { expandCmakeFlags, type BuildProfile } from './profile.js';

export interface CmakeSetup {
  readonly worktree: string;
  readonly buildDir: string;
  readonly installDir: string;
  /** qpswatch's cache folder: ccache keeps its objects in <cacheDir>/ccache; `{cache_dir}` in flags. */
  readonly cacheDir: string;
  readonly jobs: number;
}

export interface CmakeCommands {
  readonly configure: string[];
  readonly build: string[];
  readonly install: string[];
}

/** The three cmake commands of a build. Pure, so the argv can be checked without running anything. */
export function cmakeCommands(profile: BuildProfile, setup: CmakeSetup): CmakeCommands {
  const launcher = profile.ccache ? ['-DCMAKE_C_COMPILER_LAUNCHER=ccache', '-DCMAKE_CXX_COMPILER_LAUNCHER=ccache'] : [];
  return {
    configure: [
      'cmake',
      '-S',
      setup.worktree,
      '-B',
      setup.buildDir,
      '-G',
      profile.generator,
      `-DCMAKE_INSTALL_PREFIX=${setup.installDir}`,
      ...launcher,
      ...expandCmakeFlags(profile.cmakeFlags, setup.cacheDir),
    ],
    build: ['cmake', '--build', setup.buildDir, '-j', String(setup.jobs)],
    install: ['cmake', '--install', setup.buildDir],
  };
}

/**
 * The environment of every cmake step: exec's defaults, the profile's env on top, and with ccache its folders.
 * CCACHE_BASEDIR is the deepest folder holding both the worktree and the build folder: ccache hashes the paths
 * below it relative to the compiler's working directory, so two releases share cached objects when each build
 * folder sits at the same place in its worktree (ensureBuild's layout). CCACHE_NOHASHDIR keeps the working
 * directory, which -g would put in the hash, out of it.
 */
export function buildEnv(
  profile: BuildProfile,
  setup: Pick<CmakeSetup, 'worktree' | 'buildDir' | 'cacheDir'>,
  base: Record<string, string>,
): Record<string, string> {
  const env = { ...base, ...profile.env };
  if (!profile.ccache) return env;
  return {
    ...env,
    CCACHE_DIR: join(setup.cacheDir, 'ccache'),
    CCACHE_BASEDIR: ccacheBaseDir(setup.worktree, setup.buildDir),
    CCACHE_NOHASHDIR: '1',
  };
}

/**
 * The deepest common folder of the two; the worktree itself when they share only "/" (base_dir=/ rewrites system
 * headers too).
 */
export function ccacheBaseDir(worktree: string, buildDir: string): string {
  const a = resolve(worktree);
  const b = resolve(buildDir);
  let common = a;
  while (!isInside(b, common)) {
    const up = dirname(common);
    if (up === common) break;
    common = up;
  }
  return common === parse(common).root ? a : common;
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
