import type { BuildRecord, ReleaseRecord, ReleaseStore } from '../store/index.js';

/**
 * The built install of a release: its own build, else the build of the same commit with the same build profile
 * made for a release of another upstream on the same repository. A key is built once, for whichever release came
 * first, so that build is this release's too.
 */
export async function builtInstall(store: ReleaseStore, release: ReleaseRecord, profile: string | undefined): Promise<BuildRecord | undefined> {
  const builtOf = async (r: ReleaseRecord): Promise<BuildRecord | undefined> => (await store.buildsOfRelease(r.id)).filter((b) => b.state === 'built').at(-1);
  const own = await builtOf(release);
  if (own !== undefined || profile === undefined) return own;
  for (const twin of (await store.listReleases()).filter((r) => r.id !== release.id && r.commit === release.commit)) {
    const built = await builtOf(twin);
    if (built?.profile === profile) return built;
  }
  return undefined;
}
