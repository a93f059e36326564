export {
  loadBuildProfile,
  parseBuildProfile,
  listBuildProfiles,
  shippedBuildProfileDir,
  cmakeFlagName,
  expandCmakeFlags,
  profileFor,
  overrideApplies,
  allProfilePatches,
  type BuildProfile,
  type BuildProfileOverride,
  type BuildTarget,
} from './profile.js';
export { ensureBuildPackages, type BuildPackagesOptions } from './build-packages.js';
export { GENERATORS, type Generator } from './profile-schema.js';
export {
  buildKey,
  compilerVersion,
  profileHash,
  profileContent,
  canonicalJson,
  type BuildKeyInput,
} from './build-key.js';
export {
  buildPathsFor,
  installDirFor,
  isInstallComplete,
  readInstallRecord,
  markInstallComplete,
  INSTALL_MARKER,
  type BuildPaths,
  type InstallRecord,
} from './build-paths.js';
export { cmakeCommands, buildEnv, ccacheBaseDir, type CmakeCommands, type CmakeSetup } from './cmake-argv.js';
export { buildWorktree, type BuildWorktreeOptions, type BuildResult, type BuildProgress } from './build-worktree.js';
export { ensureBuild, WORKTREE_BUILD_DIR, type EnsureBuildOptions, type EnsureBuildResult } from './ensure-build.js';
export { checkFreeSpace, freeSpace, formatBytes, describeBytes, type FreeSpace } from './disk-guard.js';
export { planPrune, applyPrune, type BuildEntry, type PruneInput, type PrunePlan, type KeepReason } from './prune.js';
export { unpackInto, unpackTarball, type UnpackedTarball } from './tarball.js';
export { installTarball, tarballKey, fileSha256, unpackLogFor, type InstallTarballOptions } from './install-tarball.js';
export { pickFailureLines } from './failure-lines.js';
export {
  acquireBuildLock,
  buildLockPath,
  stopDeadBuilds,
  stopLeftoverBuild,
  type BuildLockOptions,
} from './build-lock.js';
export {
  BUILD_PHASES,
  BuildProfileError,
  BuildToolMissingError,
  BuildPackagesError,
  BuildFailedError,
  BuildAbortedError,
  BuildLockError,
  DiskSpaceError,
  TarballUnpackError,
  type BuildPhase,
  type BuildFailure,
} from './errors.js';
export { CacheSizeCache, folderBytes, measureCacheSizes, type CacheSizeCacheOptions } from './cache-sizes.js';
