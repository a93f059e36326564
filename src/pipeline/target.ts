import type { TargetConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';
import { loadServerProfile, resolveServerBinaries, type ServerBinaries, type ServerProfile } from '../server/index.js';
import type { ReleaseStore, TargetRef } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';

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
        ? `target '${target}' is not defined and is not a built release: add it under targets: (see config/quickstart.yaml) or build the tag first (qpswatch build TAG)`
        : `target '${target}' is not defined and is not a built release: use one of ${known.join(', ')}, add it under targets:, or build the tag first (qpswatch build TAG)`,
    );
  }
}

/** Where a target name is looked up: the config's targets, then the releases qpswatch built. */
export interface TargetSources {
  /** The config's targets:. */
  targets: Readonly<Record<string, TargetConfig>>;
  /** server_profiles_dir: where each target's server profile is found. */
  serverProfilesDir: string;
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
}

/**
 * A name is a target of the config, or the tag of a release built by qpswatch: that one runs from its install
 * folder with its upstream's server profile.
 */
export async function resolveTarget(name: string, sources: TargetSources): Promise<PreparedTarget> {
  const { store, log } = sources;
  const configured = sources.targets[name];
  if (configured !== undefined) return prepareTarget(name, configured, sources.serverProfilesDir, { log });
  for (const release of await store.findReleasesByTag(name)) {
    const upstream = sources.upstreams.find((u) => u.name === release.upstream);
    const built = (await store.buildsOfRelease(release.id)).filter((b) => b.state === 'built').at(-1);
    if (upstream === undefined || built === undefined) continue;
    const target: TargetConfig = { kind: 'installed', flavor: upstream.flavor, basedir: built.installDir, server_profile: upstream.serverProfile };
    const description = { kind: 'release', upstream: upstream.name, tag: release.tag, commit: release.commit, buildKey: built.buildKey };
    return prepareTarget(name, target, sources.serverProfilesDir, { description, log });
  }
  throw new UnknownTargetError(name, Object.keys(sources.targets));
}

/** One target: its binaries found, its version read from the binary, its server profile loaded from the folder. */
export async function prepareTarget(name: string, target: TargetConfig, serverProfilesDir: string, opts: PrepareTargetOptions = {}): Promise<PreparedTarget> {
  const binaries = await resolveServerBinaries(target.flavor, target.basedir ?? target.binary ?? '', opts.log);
  const profile = await loadServerProfile(target.server_profile, serverProfilesDir);
  const ref: TargetRef = {
    name,
    flavor: target.flavor,
    version: binaries.version.text,
    binary: binaries.mysqld,
    serverProfile: target.server_profile,
    description: opts.description ?? { kind: target.kind, basedir: binaries.basedir, versionText: binaries.versionText },
  };
  return { name, binaries, profile, ref };
}
