import { isInstallComplete } from '../compile/index.js';
import type { BuildRecord, ReleaseRecord, ReleaseStore } from '../store/index.js';

/**
 * The built install of a release with a build profile: its own build with that profile, else the build of the same
 * commit with the same profile made for a release of another upstream on the same repository. A key is built once,
 * for whichever release came first, so that build is this release's too. Without a profile (a tarball upstream's
 * release) its latest build.
 */
export async function builtInstall(
  store: ReleaseStore,
  release: ReleaseRecord,
  profile: string | undefined,
  stateDir?: string,
): Promise<BuildRecord | undefined> {
  // One tag may be built with several profiles (TAG@PROFILE): only the asked one's build is this install. With
  // stateDir, a build installed on this host comes first: in a fleet, hosts whose compilers differ build one release
  // under different keys, and the latest row may be another host's.
  const builtOf = async (r: ReleaseRecord): Promise<BuildRecord | undefined> => {
    const built = (await store.buildsOfRelease(r.id)).filter(
      (b) => b.state === 'built' && (profile === undefined || b.profile === profile),
    );
    if (stateDir !== undefined)
      for (const b of [...built].reverse()) if (await installedHere(stateDir, b.buildKey)) return b;
    return built.at(-1);
  };
  const own = await builtOf(release);
  if (own !== undefined || profile === undefined) return own;
  for (const twin of (await store.listReleases()).filter((r) => r.id !== release.id && r.commit === release.commit)) {
    const built = await builtOf(twin);
    if (built !== undefined) return built;
  }
  return undefined;
}

/** Whether this host finished the install of a key (its marker under stateDir); a key that is no build key is not. */
async function installedHere(stateDir: string, key: string): Promise<boolean> {
  try {
    return await isInstallComplete(stateDir, key);
  } catch {
    return false;
  }
}
