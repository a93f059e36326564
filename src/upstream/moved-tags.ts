import type { RemoteTag } from './ls-remote.js';

/** A tag the remote now points at another commit than the one qpswatch built. */
export interface MovedTag {
  readonly tag: string;
  readonly knownCommit: string;
  readonly remoteCommit: string;
}

/** Tags present on both sides whose commit changed; new and deleted tags are not moves. In the order of `known`. */
export function detectMovedTags(known: readonly RemoteTag[], remote: readonly RemoteTag[]): MovedTag[] {
  const now = new Map(remote.map((t) => [t.tag, t.commit]));
  return known.flatMap((k) => {
    const commit = now.get(k.tag);
    return commit !== undefined && commit !== k.commit
      ? [{ tag: k.tag, knownCommit: k.commit, remoteCommit: commit }]
      : [];
  });
}
