import type { Config, TargetConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import { loadServerProfile, resolveServerBinaries, type ServerBinaries, type ServerProfile } from '../server/index.js';
import type { Store, TargetRef } from '../store/index.js';
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

/**
 * A name is a target of the config, or the tag of a release built by qpswatch: that one runs from its install
 * folder with its upstream's server profile.
 */
export async function resolveTarget(name: string, config: Config, upstreams: readonly Upstream[], store: Store): Promise<PreparedTarget> {
  if (config.targets[name] !== undefined) return prepareTarget(name, config);
  for (const release of await store.findReleasesByTag(name)) {
    const upstream = upstreams.find((u) => u.name === release.upstream);
    const built = (await store.buildsOfRelease(release.id)).filter((b) => b.state === 'built').at(-1);
    if (upstream === undefined || built === undefined) continue;
    const target: TargetConfig = { kind: 'installed', flavor: upstream.flavor, basedir: built.installDir, server_profile: upstream.serverProfile };
    const prepared = await prepareTarget(name, { ...config, targets: { ...config.targets, [name]: target } });
    prepared.ref.description = { kind: 'release', upstream: upstream.name, tag: release.tag, commit: release.commit, buildKey: built.buildKey };
    return prepared;
  }
  throw new UnknownTargetError(name, Object.keys(config.targets));
}

export async function prepareTarget(name: string, config: Config): Promise<PreparedTarget> {
  const target: TargetConfig | undefined = config.targets[name];
  if (target === undefined) throw new UnknownTargetError(name, Object.keys(config.targets));
  const binaries = await resolveServerBinaries(target.flavor, target.basedir ?? target.binary ?? '');
  const profile = await loadServerProfile(target.server_profile, config.server_profiles_dir);
  const ref: TargetRef = {
    name,
    flavor: target.flavor,
    version: binaries.version.text,
    binary: binaries.mysqld,
    serverProfile: target.server_profile,
    description: { kind: target.kind, basedir: binaries.basedir, versionText: binaries.versionText },
  };
  return { name, binaries, profile, ref };
}
