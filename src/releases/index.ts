// The releases room: upstream tags discovered, a release's source fetched and built (cmake, ccache, patches), and a
// commit's build for a bisection.
export { PatchFileError, PatchFileModeError, buildPatches } from './build-patches.js';
export { discoverAll, type DiscoveryOutcome } from './discover.js';
export {
  buildRelease,
  buildSettings,
  type BuildOutcome,
  type BuildStatus,
  type BuildDeps,
  type BuildSettings,
} from './build-release.js';
export { obtainRelease, fetchRelease, TARBALL_PROFILE, TarballVariantError } from './fetch-release.js';
export { buildCommit, type CommitBuildOutcome, type CommitToBuild } from './build-commit.js';
export { mirrorDirFor } from './worktrees.js';
