// A release tarball's name is a release's name: it lives with the versions, below both rooms that read it (compile
// unpacks binary tarballs by it, upstream lists a mirror's tarballs by it).
import { basename } from 'node:path';
import type { Flavor } from './flavor.js';
import { parseVersion, type Version } from './version.js';
import { TarballNameError, VersionParseError } from './errors.js';

/** Flavor and version, as a release tarball's file name says them. */
export interface TarballName {
  readonly flavor: Flavor;
  readonly version: Version;
}

// mariadb-10.11.9-linux-systemd-x86_64.tar.gz, mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz,
// Percona-Server-8.0.36-28-Linux.x86_64.glibc2.35.tar.gz (the "-28" is Percona's build, part of its version).
// flavor-version-linux...archive: the version (10.11.9, 8.0.36-28, 8.0.36-28.1) and the archive kinds unpacked.
const NAME_RE = new RegExp(
  String.raw`^(mariadb|mysql|percona-server)-(\d+\.\d+\.\d+(?:-\d+(?:\.\d+)?)?)-linux[-.][A-Za-z0-9_.+-]*?` +
    String.raw`\.(?:tar\.gz|tgz|tar\.xz|txz|tar\.zst)$`,
  'i',
);
const FLAVOR_OF: Record<string, Flavor> = {
  mariadb: 'mariadb',
  mysql: 'mysql',
  'mysql-boost': 'mysql',
  'percona-server': 'percona',
};
// mariadb-10.11.9.tar.gz, mysql-8.0.36.tar.gz, mysql-boost-8.0.36.tar.gz (MySQL's with Boost inside),
// percona-server-8.0.36-28.tar.gz: the release's source, one top folder holding its CMakeLists.txt.
const SOURCE_NAME_RE = new RegExp(
  String.raw`^(mariadb|mysql|mysql-boost|percona-server)-(\d+\.\d+\.\d+(?:-\d+(?:\.\d+)?)?)` +
    String.raw`\.(?:tar\.gz|tgz|tar\.xz|txz|tar\.zst)$`,
  'i',
);

/** Flavor and version from an official binary tarball's file name. */
export function parseTarballName(fileName: string): TarballName {
  const name = basename(fileName);
  const m = NAME_RE.exec(name);
  if (m === null) throw new TarballNameError(name, 'the name does not say flavor and version');
  return nameParts(name, m[1]!, m[2]!);
}

/** Flavor and version from a source tarball's file name (mariadb-10.11.9.tar.gz). */
export function parseSourceTarballName(fileName: string): TarballName {
  const name = basename(fileName);
  const m = SOURCE_NAME_RE.exec(name);
  if (m === null)
    throw new TarballNameError(
      name,
      'the name does not say flavor and version',
      'use a source tarball name such as mariadb-10.11.9.tar.gz, mysql-8.0.36.tar.gz or ' +
        'percona-server-8.0.36-28.tar.gz',
    );
  return nameParts(name, m[1]!, m[2]!);
}

/** The flavor and version a name's two matched parts say; a version that does not parse names the file. */
function nameParts(name: string, flavor: string, version: string): TarballName {
  try {
    return { flavor: FLAVOR_OF[flavor.toLowerCase()]!, version: parseVersion(version) };
  } catch (err) {
    if (err instanceof VersionParseError)
      throw new TarballNameError(name, `"${version}" is not a version (${err.message})`);
    throw err;
  }
}
