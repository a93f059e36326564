import { redactUrl, type Logger } from '../log/index.js';
import { compareVersions, rangeIncludes } from '../version/index.js';
import { globToRegExp, matchesAny } from './glob.js';
import type { RemoteTag } from './ls-remote.js';
import { classifyTag, TAG_SHAPES, type ReleaseTag } from './release-tag.js';
import type { Upstream } from './upstream.js';

/** One release of an upstream: its tag, the commit the tag points to, and the version it names. */
export interface Release extends ReleaseTag {
  readonly commit: string;
}

/**
 * The releases of an upstream among the remote's tags, oldest first by version (never by tag text).
 * A tag is kept when it is a release tag of the flavor, its version is in the series and at or above min_version,
 * it matches an include glob (when there are any) and no exclude glob. Every other tag is skipped with a debug line.
 */
export function selectReleases(upstream: Upstream, tags: readonly RemoteTag[], log: Logger): Release[] {
  const tagLog = log.child({ component: 'upstream' });
  const include = upstream.include.map(globToRegExp);
  const exclude = upstream.exclude.map(globToRegExp);
  const releases: Release[] = [];
  for (const { tag, commit } of tags) {
    const verdict = classifyTag(upstream.flavor, tag);
    const skip = 'skip' in verdict ? verdict.skip : filterReason(upstream, verdict.release, include, exclude);
    if (skip !== undefined) {
      tagLog.debug({ upstream: upstream.name, tag, reason: skip }, 'tag skipped');
      continue;
    }
    if ('release' in verdict) releases.push({ ...verdict.release, commit });
  }
  return releases.sort(byVersion);
}

function filterReason(
  upstream: Upstream,
  release: ReleaseTag,
  include: RegExp[],
  exclude: RegExp[],
): string | undefined {
  if (!rangeIncludes(upstream.series, release.version)) return `outside the series "${upstream.series.text}"`;
  if (upstream.minVersion !== undefined && compareVersions(release.version, upstream.minVersion) < 0) {
    return `below min_version ${upstream.minVersion.text}`;
  }
  if (include.length > 0 && !matchesAny(include, release.tag)) return 'matches no include pattern';
  if (matchesAny(exclude, release.tag)) return 'matches an exclude pattern';
  return undefined;
}

/**
 * Version order; two tags naming equal versions (5.6.51-91 and 5.6.51-91.0) fall back to the tag text, so the order is
 * stable.
 */
export function byVersion(a: ReleaseTag, b: ReleaseTag): number {
  return compareVersions(a.version, b.version) || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);
}

/** One line for an upstream whose filters select nothing: what was asked, and the newest release tag seen. */
export function describeEmptySelection(upstream: Upstream, tags: readonly RemoteTag[]): string {
  const head =
    `upstream "${upstream.name}" (${upstream.flavor}, series ` +
    `"${upstream.series.text}") selects no release from ` +
    `${redactUrl(upstream.remote)}`;
  if (tags.length === 0) return `${head}: the remote has no tags; check the remote`;
  const newest = tags
    .map(({ tag }) => classifyTag(upstream.flavor, tag))
    .flatMap((v) => ('release' in v ? [v.release] : []))
    .sort(byVersion)
    .at(-1);
  if (newest === undefined) {
    return (
      `${head}: none of its ${tags.length} tags is a ${upstream.flavor} ` +
      `release tag (${TAG_SHAPES[upstream.flavor]}), ` +
      `e.g. ${JSON.stringify(tags[0]!.tag)}; check the flavor and the remote`
    );
  }
  return (
    `${head}: the newest release tag among its ${tags.length} tags is ` +
    `${newest.tag} (${newest.version.text}); check series, include, exclude ` +
    `and min_version`
  );
}
