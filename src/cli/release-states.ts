import type { ReleaseRecord, ReleaseStore, SessionStore } from '../store/index.js';

export type ReleaseState = 'new' | 'building' | 'built' | 'build failed' | 'benchmarked';

/**
 * What a person wants to know of a release at a glance: how far qpswatch has come with it. With `buildProfile` (a git
 * upstream's), only its builds count: a build variant (TAG@PROFILE) that failed does not make the release's own build
 * look failed.
 */
export async function releaseStates(
  store: SessionStore & ReleaseStore,
  releases: readonly ReleaseRecord[],
  buildProfile?: string,
): Promise<Map<number, ReleaseState>> {
  const sessions = await store.listSessions({ limit: 10_000, state: 'done' });
  const benchmarked = new Set(sessions.map((s) => s.candidate.name));
  const states = new Map<number, ReleaseState>();
  for (const release of releases) {
    const latest = (await store.buildsOfRelease(release.id))
      .filter((b) => buildProfile === undefined || b.profile === buildProfile)
      .at(-1);
    if (latest?.state === 'built' && benchmarked.has(release.tag)) states.set(release.id, 'benchmarked');
    else if (latest?.state === 'built') states.set(release.id, 'built');
    else if (latest?.state === 'failed') states.set(release.id, 'build failed');
    else if (latest?.state === 'building') states.set(release.id, 'building');
    else states.set(release.id, 'new');
  }
  return states;
}
