import { parseVersion, type Flavor, type Version } from '../version/index.js';

/** A tag that names a release of its flavor, with the version it names. */
export interface ReleaseTag {
  readonly tag: string;
  readonly version: Version;
}

/** Why a tag is not a release: said in the debug line that skips it. */
export type TagVerdict = { readonly release: ReleaseTag } | { readonly skip: string };

/**
 * The release tags of each flavor, anchored at both ends so that every suffix (-rc, -beta, -m3, a, sp1, -release,
 * -dmr, rc1) and every prefix (mysql-cluster-, mariadb-galera-, clone-) falls out:
 * - mariadb: mariadb-X.Y.Z (MariaDB/server also carries MySQL's mysql-* tags, merged history, and galera tags).
 * - mysql: mysql-X.Y.Z (mysql/mysql-server also has mysql-cluster-*, the NDB releases).
 * - percona: Percona-Server-X.Y.Z-B with a build of one or more numbers (8.0.36-28, 5.6.51-91.0, 5.5.62-38.14);
 *   percona/percona-server also carries MySQL's mysql-* tags.
 */
const TAG_PATTERNS: Record<Flavor, RegExp> = {
  mariadb: /^mariadb-(\d{1,3}\.\d{1,3}\.\d{1,3})$/,
  mysql: /^mysql-(\d{1,3}\.\d{1,3}\.\d{1,3})$/,
  percona: /^Percona-Server-(\d{1,3}\.\d{1,3}\.\d{1,3}-\d{1,3}(?:\.\d{1,3})*)$/,
};

/** How each flavor's release tags look, for messages. */
export const TAG_SHAPES: Record<Flavor, string> = {
  mariadb: 'mariadb-X.Y.Z',
  mysql: 'mysql-X.Y.Z',
  percona: 'Percona-Server-X.Y.Z-N',
};

const TAG_PREFIXES: Record<Flavor, string> = { mariadb: 'mariadb-', mysql: 'mysql-', percona: 'Percona-Server-' };

/** The tag a git repository gives the release of this flavor and version: a tarball release is named like it. */
export function releaseTagFor(flavor: Flavor, version: Version): string {
  return `${TAG_PREFIXES[flavor]}${version.text}`;
}

/** The release a tag names, or why it names none. */
export function classifyTag(flavor: Flavor, tag: string): TagVerdict {
  const m = TAG_PATTERNS[flavor].exec(tag);
  if (m === null) return { skip: `not a ${flavor} release tag (${TAG_SHAPES[flavor]})` };
  const version = parseVersion(m[1]!);
  // Every MariaDB X.Y.0 since 10.0 is a preview (alpha); it is tagged like a release but is not one.
  if (flavor === 'mariadb' && version.patch === 0) return { skip: 'a MariaDB X.Y.0 preview release' };
  return { release: { tag, version } };
}

/** The release a tag names, or undefined for any other tag: tags are data, never an error. */
export function parseReleaseTag(flavor: Flavor, tag: string): ReleaseTag | undefined {
  const verdict = classifyTag(flavor, tag);
  return 'release' in verdict ? verdict.release : undefined;
}
