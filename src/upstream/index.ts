export { UpstreamConfigSchema, parseUpstream, PROFILE_RE, type Upstream, type UpstreamConfig } from './upstream.js';
export { UpstreamConfigError } from './config-error.js';
export { parseReleaseTag, classifyTag, TAG_SHAPES, type ReleaseTag, type TagVerdict } from './release-tag.js';
export { selectReleases, describeEmptySelection, byVersion, type Release } from './select.js';
export { globToRegExp } from './glob.js';
export { listRemoteTags, parseLsRemote, type RemoteTag } from './ls-remote.js';
export { syncMirror, type MirrorOptions, type SyncResult } from './mirror.js';
export { addWorktree, removeWorktree, updateSubmodules, isCommitId, type Worktree } from './worktree.js';
export { applyPatch, applyReason, PatchApplyError } from './apply-patch.js';
export { detectMovedTags, type MovedTag } from './moved-tags.js';
export { isRemoteText } from './remote.js';
export type { GitOptions } from './git.js';
export {
  RemoteError,
  InvalidRemoteError,
  RemoteUnreachableError,
  RemoteCredentialsError,
  RemotePathMissingError,
  NotAGitRepositoryError,
  GitNotFoundError,
  InvalidCommitError,
  MirrorFolderError,
  WorktreeFolderError,
  CommitNotInMirrorError,
  NotAWorktreeError,
  GitCommandError,
  LsRemoteOutputError,
} from './errors.js';
export {
  UPSTREAM_KINDS,
  TarballUpstreamConfigSchema,
  SourceUpstreamConfigSchema,
  buildsFromSource,
  type UpstreamKind,
  type TarballUpstreamConfig,
  type SourceUpstreamConfig,
} from './upstream.js';
export { releaseTagFor } from './release-tag.js';
export {
  discoverTarballReleases,
  locateTarball,
  tarballCommit,
  type TarballFile,
  type TarballIndexOptions,
} from './tarball-releases.js';
export {
  parseListing,
  parseChecksums,
  parseListFile,
  checksumFor,
  type ListingEntry,
  type ChecksumLine,
} from './tarball-index.js';
export { downloadFile, DOWNLOAD_MAX_BYTES, type DownloadOptions } from './download.js';
export {
  TarballIndexError,
  TarballDownloadError,
  TarballChecksumError,
  TarballNotListedError,
  TarballChangedError,
} from './tarball-errors.js';
export { listCommits, parseCommitLog, type CommitEntry } from './commit-log.js';
