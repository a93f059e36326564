import { compareVersions, parseVersion, type Version } from '../version/index.js';

/** version >= than; than may name a series ("10.1") or a release ("5.7.6"). */
export function atLeast(version: Version, than: string): boolean {
  const bound = than.split('.').length === 2 ? `${than}.0` : than;
  return compareVersions(version, parseVersion(bound)) >= 0;
}
