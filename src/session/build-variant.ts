import { PROFILE_RE } from '../upstream/index.js';

/**
 * A release named together with a build profile, TAG@PROFILE ("mariadb-10.11.9@mariadb-rel-nops"): the release
 * built with that profile instead of its upstream's, so two builds of one tag can be compared.
 */
export interface ReleaseVariant {
  tag: string;
  /** Undefined: the upstream's build profile. */
  buildProfile?: string;
}

// PROFILE_RE: a build profile name (the upstream's build_profile rule); no release tag pattern of a flavor holds an
// "@".

/** Splits at the last "@" when what follows is a profile name; anything else is a plain tag. */
export function splitVariant(name: string): ReleaseVariant {
  const at = name.lastIndexOf('@');
  const profile = name.slice(at + 1);
  if (at <= 0 || !PROFILE_RE.test(profile)) return { tag: name };
  return { tag: name.slice(0, at), buildProfile: profile };
}
