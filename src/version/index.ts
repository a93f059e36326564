export {
  parseVersion,
  makeVersion,
  compareVersions,
  versionKey,
  versionParts,
  MAX_VERSION_PART,
  type Version,
} from './version.js';
export {
  parseVersionRange,
  rangeIncludes,
  type VersionRange,
  type VersionComparator,
  type RangeOperator,
} from './range.js';
export { FLAVORS, isFlavor, parseFlavor, type Flavor } from './flavor.js';
export { parseTarballName, parseSourceTarballName, type TarballName } from './tarball-name.js';
export { VersionParseError, VersionRangeError, UnknownFlavorError, TarballNameError } from './errors.js';
