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
): Promise<BuildRecord | undefined> {
  // One tag may be built with several profiles (TAG@PROFILE): only the asked one's build is this install.
  const builtOf = async (r: ReleaseRecord): Promise<BuildRecord | undefined> =>
    (await store.buildsOfRelease(r.id))
      .filter((b) => b.state === 'built' && (profile === undefined || b.profile === profile))
      .at(-1);
  const own = await builtOf(release);
  if (own !== undefined || profile === undefined) return own;
  for (const twin of (await store.listReleases()).filter((r) => r.id !== release.id && r.commit === release.commit)) {
    const built = await builtOf(twin);
    if (built !== undefined) return built;
  }
  return undefined;
}
