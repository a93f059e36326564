/** One release tag of an upstream, as discovered. Versions are stored with their sortable key; order by it. */
export interface ReleaseInput {
  upstream: string;
  flavor: string;
  tag: string;
  commit: string;
  version: string;
  versionKey: string;
}

export interface ReleaseRecord extends ReleaseInput {
  id: number;
  firstSeenAt: string;
  /** The commit the tag pointed at before it moved upstream; null when it never moved. */
  movedFrom: string | null;
  movedAt: string | null;
}

export interface RecordReleasesResult {
  /** Tags seen for the first time, in version order. */
  added: ReleaseRecord[];
  /** Tags that now point at another commit: their builds no longer match and are redone. */
  moved: Array<{ release: ReleaseRecord; fromCommit: string }>;
}

export const buildStates = ['building', 'built', 'failed'] as const;
export type BuildState = (typeof buildStates)[number];

export interface BuildInput {
  releaseId: number;
  /** (commit, profile hash, compiler version): the same key is never built twice. */
  buildKey: string;
  profile: string;
  compiler: string;
  installDir: string;
  logFile: string;
  pid: number;
}

export interface BuildRecord extends BuildInput {
  id: number;
  state: BuildState;
  /** The last lines of the build log when it failed. */
  failureLines: string[];
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number | null;
}

/** Releases as discovery saw them, and their builds. */
export interface ReleaseStore {
  /**
   * Records what discovery saw, in one transaction: new tags are added, a known tag at another commit is marked
   * moved. Tags already known at the same commit change nothing.
   */
  recordReleases(releases: readonly ReleaseInput[]): Promise<RecordReleasesResult>;
  /** Releases in version order (by upstream, then version_key). */
  listReleases(upstream?: string): Promise<ReleaseRecord[]>;
  /** The releases with this tag, one per upstream that has it. */
  findReleasesByTag(tag: string): Promise<ReleaseRecord[]>;
  getRelease(id: number): Promise<ReleaseRecord | undefined>;

  getBuild(buildKey: string): Promise<BuildRecord | undefined>;
  /** A build in state `building`; replaces an earlier failed or unfinished row of the same key. */
  startBuild(input: BuildInput): Promise<BuildRecord>;
  finishBuild(id: number): Promise<BuildRecord>;
  /** Keeps the last lines of the log, so the failure is explained without the log file. */
  failBuild(id: number, failureLines: readonly string[]): Promise<BuildRecord>;
  buildsOfRelease(releaseId: number): Promise<BuildRecord[]>;
  listBuilds(): Promise<BuildRecord[]>;
}
