import type { Config, TargetConfig } from '../config/index.js';
import { InputError } from '../errors.js';
import { loadServerProfile, resolveServerBinaries, type ServerBinaries, type ServerProfile } from '../server/index.js';
import type { TargetRef } from '../store/index.js';

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
        ? `target '${target}' is not defined: the config has no targets; add one under targets: (see config/quickstart.yaml)`
        : `target '${target}' is not defined: use one of ${known.join(', ')} (or add it under targets: in the config)`,
    );
  }
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
