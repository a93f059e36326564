import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileSha256, installDirFor, installTarball, isInstallComplete } from '../compile/index.js';
import type { TarballTargetConfig, TargetConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';
import {
  checkCacheDir,
  loadServerProfile,
  resolveServerBinaries,
  type ServerBinaries,
  type ServerProfile,
} from '../server/index.js';
import type { ReleaseRecord, ReleaseStore, TargetRef } from '../store/index.js';
import { buildsFromSource, type Upstream } from '../upstream/index.js';
import { builtInstall } from './release-install.js';
import { splitVariant } from './build-variant.js';

/** A target ready to run: its binaries found, its version read from the binary, its profile loaded. */
export interface PreparedTarget {
  name: string;
  binaries: ServerBinaries;
  profile: ServerProfile;
  ref: TargetRef;
}

export class UnknownTargetError extends InputError {
  constructor(
    readonly target: string,
    readonly known: readonly string[],
  ) {
    super(
      known.length === 0
        ? `target '${target}' is not defined and is not a built release: add it ` +
            `under targets: (see config/quickstart.yaml) or build the tag first ` +
            `(qpswatch build TAG)`
        : `target '${target}' is not defined and is not a built release: use one ` +
            `of ${known.join(', ')}, add it under targets:, or build the tag first ` +
            `(qpswatch build TAG)`,
    );
  }
}

/** A tarball target whose file is missing, unreadable, or not the file its sha256 names. */
export class TarballTargetError extends InputError {
  constructor(
    readonly target: string,
    readonly tarball: string,
    readonly reason: string,
  ) {
    super(`target '${target}': tarball ${tarball} ${reason}`);
  }
}

/** Where a target name is looked up: the config's targets, then the releases qpswatch built. */
export interface TargetSources {
  /** state_dir: a built release runs from builds/<key>/install in it, whatever path the store holds. */
  stateDir: string;
  /** The config's targets:. */
  targets: Readonly<Record<string, TargetConfig>>;
  /** server_profiles_dir: where each target's server profile is found. */
  serverProfilesDir: string;
  /** cache_dir: a tarball target is unpacked once under tarballs/ in it. */
  cacheDir?: string;
  /** Built releases of these upstreams can be named by their tag. */
  upstreams: readonly Upstream[];
  store: ReleaseStore;
  /** `mysqld --version` runs through exec, which logs its exit here. */
  log?: Logger;
}

export interface PrepareTargetOptions {
  /** What the session records of the target; by default its kind, basedir and version line. */
  description?: TargetRef['description'];
  log?: Logger;
  /** cache_dir, where a tarball target is unpacked (required for one). */
  cacheDir?: string;
}

/**
 * A name is a target of the config, or the tag of a release built by qpswatch: that one runs from its install
 * folder with its upstream's server profile.
 */
export async function resolveTarget(name: string, sources: TargetSources): Promise<PreparedTarget> {
  const { store, log } = sources;
  const configured = sources.targets[name];
  if (configured !== undefined)
    return prepareTarget(name, configured, sources.serverProfilesDir, {
      log,
      ...(sources.cacheDir !== undefined ? { cacheDir: sources.cacheDir } : {}),
    });
  const variant = splitVariant(name);
  const releases = await store.findReleasesByTag(variant.tag);
  for (const release of releases) {
    const upstream = sources.upstreams.find((u) => u.name === release.upstream);
    if (upstream === undefined || (variant.buildProfile !== undefined && !buildsFromSource(upstream))) continue;
    const buildProfile = buildsFromSource(upstream) ? (variant.buildProfile ?? upstream.buildProfile) : undefined;
    const built = await builtInstall(store, release, buildProfile, sources.stateDir);
    if (built === undefined) continue;
    const target: TargetConfig = {
      kind: 'installed',
      flavor: upstream.flavor,
      basedir: await ownInstallDir(sources.stateDir, release.tag, built),
      server_profile: upstream.serverProfile,
    };
    // The build profile each side ran is kept with the session and shown in its reports. A build with another profile
    // than the upstream's is not the release as the series measures it: kind release-variant keeps its samples out of
    // the series' history and metrics, which count kind release only.
    const variantOnly = buildProfile !== undefined && buildProfile !== upstream.buildProfile;
    const description = {
      kind: variantOnly ? 'release-variant' : 'release',
      upstream: upstream.name,
      tag: release.tag,
      commit: release.commit,
      buildKey: built.buildKey,
      buildProfile: built.profile,
    };
    return prepareTarget(name, target, sources.serverProfilesDir, { description, log });
  }
  if (variant.buildProfile !== undefined && releases.length > 0)
    throw new VariantNotBuiltError(variant.tag, variant.buildProfile);
  throw new UnknownTargetError(name, Object.keys(sources.targets));
}

/**
 * A build row whose install folder is not the one state_dir and its key make: whoever could write the store (a shared
 * MySQL store, a state folder once open to others) would choose the program root runs. Nothing of it is run.
 */
export class StoredInstallPathError extends InputError {
  constructor(
    readonly tag: string,
    readonly key: string,
    readonly stored: string,
    readonly expected: string,
  ) {
    super(
      `build ${key} of ${JSON.stringify(tag)}: the store names the install folder ${JSON.stringify(stored)}, not ` +
        `${expected} (state_dir and the build key): qpswatch never runs a path the store names; if state_dir moved, ` +
        `move builds/ with it, else rebuild the tag`,
    );
  }
}

/**
 * The install folder of a build: derived from state_dir and the key, never read from the store. When this host
 * finished that install (its marker is there), the stored folder does not matter: in a fleet it is the folder of
 * whichever host built the key last. Otherwise the stored one must agree with the derived one
 * (StoredInstallPathError), so a row someone planted is named as such.
 */
async function ownInstallDir(
  stateDir: string,
  tag: string,
  built: { buildKey: string; installDir: string },
): Promise<string> {
  let expected: string;
  try {
    expected = installDirFor(stateDir, built.buildKey);
  } catch {
    // A key that is no build key (a row someone wrote by hand) names no folder of qpswatch's at all.
    throw new StoredInstallPathError(
      tag,
      built.buildKey,
      built.installDir,
      join(stateDir, 'builds', '<key>', 'install'),
    );
  }
  if (resolve(built.installDir) !== expected && !(await isInstallComplete(stateDir, built.buildKey)))
    throw new StoredInstallPathError(tag, built.buildKey, built.installDir, expected);
  return expected;
}

/**
 * The install folder a built release runs from, derived from state_dir and its build key as resolveTarget derives it,
 * without running anything of it: undefined when the release has no build with the profile. A command that will run
 * the release later (bisect runs its good end after its first build) checks it with this first, so a stored path
 * that differs (StoredInstallPathError) stops it before it starts anything.
 */
export async function releaseInstallDir(
  release: ReleaseRecord,
  upstream: Upstream,
  { store, stateDir }: Pick<TargetSources, 'store' | 'stateDir'>,
): Promise<string | undefined> {
  const built = await builtInstall(
    store,
    release,
    buildsFromSource(upstream) ? upstream.buildProfile : undefined,
    stateDir,
  );
  return built === undefined ? undefined : ownInstallDir(stateDir, release.tag, built);
}

/** TAG@PROFILE of a known release that has no build with that profile. */
export class VariantNotBuiltError extends InputError {
  constructor(
    readonly tag: string,
    readonly buildProfile: string,
  ) {
    super(
      `target '${tag}@${buildProfile}': ${tag} is not built with build ` +
        `profile ${buildProfile}: build it first (qpswatch build ` +
        `${tag}@${buildProfile})`,
    );
  }
}

/** One target: its binaries found, its version read from the binary, its server profile loaded from the folder. */
export async function prepareTarget(
  name: string,
  target: TargetConfig,
  serverProfilesDir: string,
  opts: PrepareTargetOptions = {},
): Promise<PreparedTarget> {
  const unpacked = target.kind === 'tarball' ? await unpackTarballTarget(name, target, opts) : undefined;
  const where = target.kind === 'tarball' ? unpacked!.basedir : (target.basedir ?? target.binary ?? '');
  const binaries = await resolveServerBinaries(target.flavor, where, opts.log);
  const profile = await loadServerProfile(target.server_profile, serverProfilesDir);
  const ref: TargetRef = {
    name,
    flavor: target.flavor,
    version: binaries.version.text,
    binary: binaries.mysqld,
    serverProfile: target.server_profile,
    description: opts.description ?? {
      kind: target.kind,
      basedir: binaries.basedir,
      versionText: binaries.versionText,
      ...(target.kind === 'tarball' ? { tarball: target.tarball, sha256: unpacked!.sha256 } : {}),
    },
  };
  return { name, binaries, profile, ref };
}

/**
 * A tarball target's basedir: the file's sha256 is computed (and checked against the config's, when given), and it
 * is unpacked once under cache_dir/tarballs/builds/<key>/install, key from the sha256: the same file is never
 * unpacked twice, and a changed file gets a folder of its own.
 */
async function unpackTarballTarget(
  name: string,
  target: TarballTargetConfig,
  opts: PrepareTargetOptions,
): Promise<{ basedir: string; sha256: string }> {
  if (opts.cacheDir === undefined)
    throw new TypeError(`target '${name}' is a tarball: prepareTarget needs the cache folder`);
  await checkCacheDir(opts.cacheDir);
  const tarball = resolve(target.tarball);
  let sha256: string;
  try {
    sha256 = await fileSha256(tarball);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TarballTargetError(
      name,
      tarball,
      code === 'ENOENT'
        ? 'does not exist: fix the path in targets:'
        : `cannot be read (${code ?? String(err)}): fix its permissions or the path`,
    );
  }
  if (target.sha256 !== undefined && target.sha256 !== sha256) {
    throw new TarballTargetError(
      name,
      tarball,
      `has sha256 ${sha256}, the config says ${target.sha256}: fix sha256 in ` +
        `targets:, or replace the file (it was not unpacked)`,
    );
  }
  const { paths } = await installTarball({
    root: join(opts.cacheDir, 'tarballs'),
    tarball,
    sha256,
    url: pathToFileURL(tarball).href,
    ...(opts.log !== undefined ? { log: opts.log } : {}),
  });
  return { basedir: paths.installDir, sha256 };
}
