import type { BuildRecord, BuildState, ReleaseRecord } from '../release-types.js';

/** The rows of releases and builds, and their records. */
export interface ReleaseRow {
  id: number;
  upstream: string;
  flavor: string;
  tag: string;
  commit_sha: string;
  version: string;
  version_key: string;
  first_seen_at: string;
  moved_from: string | null;
  moved_at: string | null;
}

export interface BuildRow {
  id: number;
  release_id: number;
  build_key: string;
  profile: string;
  compiler: string;
  state: BuildState;
  install_dir: string;
  log_file: string;
  pid: number;
  error_lines: string;
  started_at: string;
  ended_at: string | null;
  duration_seconds: number | null;
}

export function releaseFromRow(row: ReleaseRow): ReleaseRecord {
  return {
    id: row.id,
    upstream: row.upstream,
    flavor: row.flavor,
    tag: row.tag,
    commit: row.commit_sha,
    version: row.version,
    versionKey: row.version_key,
    firstSeenAt: row.first_seen_at,
    movedFrom: row.moved_from,
    movedAt: row.moved_at,
  };
}

export function buildFromRow(row: BuildRow): BuildRecord {
  return {
    id: row.id,
    releaseId: row.release_id,
    buildKey: row.build_key,
    profile: row.profile,
    compiler: row.compiler,
    state: row.state,
    installDir: row.install_dir,
    logFile: row.log_file,
    pid: row.pid,
    failureLines: JSON.parse(row.error_lines) as string[],
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationSeconds: row.duration_seconds,
  };
}
