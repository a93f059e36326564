import { BuildNotFoundError, ReleaseNotFoundError } from '../errors.js';
import type {
  BuildInput,
  BuildRecord,
  BuildState,
  RecordReleasesResult,
  ReleaseInput,
  ReleaseRecord,
  ReleaseStore,
} from '../release-types.js';
import { checkId, checkText, parseBuildInput, parseReleaseInputs } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';

interface ReleaseRow {
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

interface BuildRow {
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

function releaseFromRow(row: ReleaseRow): ReleaseRecord {
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

function buildFromRow(row: BuildRow): BuildRecord {
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

/** The release and build tables. */
export class SqliteReleases extends SqliteRole implements ReleaseStore {
  readonly #sql = this.statements({
    releaseByTag: 'SELECT * FROM releases WHERE upstream = ? AND tag = ?',
    insertRelease: `
      INSERT INTO releases (upstream, flavor, tag, commit_sha, version, version_key, first_seen_at)
      VALUES (@upstream, @flavor, @tag, @commit, @version, @versionKey, @at) RETURNING *`,
    moveRelease:
      'UPDATE releases SET moved_from = commit_sha, commit_sha = @commit, moved_at = @at WHERE id = @id RETURNING *',
    listReleases:
      'SELECT * FROM releases WHERE (@upstream IS NULL OR upstream = @upstream) ORDER BY upstream, version_key, tag',
    findByTag: 'SELECT * FROM releases WHERE tag = ? ORDER BY upstream',
    getRelease: 'SELECT * FROM releases WHERE id = ?',
    buildByKey: 'SELECT * FROM builds WHERE build_key = ?',
    deleteBuild: 'DELETE FROM builds WHERE id = ?',
    insertBuild: `
      INSERT INTO builds (release_id, build_key, profile, compiler, state, install_dir, log_file, pid, started_at)
      VALUES (@releaseId, @buildKey, @profile, @compiler, 'building', @installDir, @logFile, @pid, @at) RETURNING *`,
    endBuild: `
      UPDATE builds SET state = @state, error_lines = @failureLines, ended_at = @at,
        duration_seconds = (julianday(@at) - julianday(started_at)) * 86400.0
      WHERE id = @id AND state = 'building' RETURNING *`,
    buildsOfRelease: 'SELECT * FROM builds WHERE release_id = ? ORDER BY id',
    allBuilds: 'SELECT * FROM builds ORDER BY id',
  });

  /** New tags are added; a known tag at a new commit is recorded as moved (its old commit kept in moved_from). */
  async recordReleases(releases: readonly ReleaseInput[]): Promise<RecordReleasesResult> {
    const valid = parseReleaseInputs(releases);
    return this.write('record releases', () => this.#record(valid, nowIso()));
  }

  async listReleases(upstream?: string): Promise<ReleaseRecord[]> {
    return this.read('list releases', () =>
      (this.#sql.listReleases.all({ upstream: upstream ?? null }) as ReleaseRow[]).map(releaseFromRow),
    );
  }

  async findReleasesByTag(tag: string): Promise<ReleaseRecord[]> {
    return this.read('find a release', () =>
      (this.#sql.findByTag.all(checkText('release', 'tag', tag)) as ReleaseRow[]).map(releaseFromRow),
    );
  }

  async getRelease(id: number): Promise<ReleaseRecord | undefined> {
    checkId('release', 'releaseId', id);
    return this.read('read a release', () => {
      const row = this.#sql.getRelease.get(id) as ReleaseRow | undefined;
      return row && releaseFromRow(row);
    });
  }

  async getBuild(buildKey: string): Promise<BuildRecord | undefined> {
    return this.read('read a build', () => {
      const row = this.#sql.buildByKey.get(checkText('build', 'buildKey', buildKey)) as BuildRow | undefined;
      return row && buildFromRow(row);
    });
  }

  /** A row for this key that failed, or whose builder died, is replaced: the caller decided to build again. */
  async startBuild(input: BuildInput): Promise<BuildRecord> {
    const build = parseBuildInput(input);
    return this.write('start a build', () => this.#start(build, nowIso()));
  }

  async finishBuild(id: number): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.write('finish a build', () => this.#end(id, 'built', [], nowIso()));
  }

  async failBuild(id: number, failureLines: readonly string[]): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.write('fail a build', () => this.#end(id, 'failed', failureLines, nowIso()));
  }

  async buildsOfRelease(releaseId: number): Promise<BuildRecord[]> {
    checkId('release', 'releaseId', releaseId);
    return this.read('list builds', () => (this.#sql.buildsOfRelease.all(releaseId) as BuildRow[]).map(buildFromRow));
  }

  async listBuilds(): Promise<BuildRecord[]> {
    return this.read('list builds', () => (this.#sql.allBuilds.all() as BuildRow[]).map(buildFromRow));
  }

  #record(releases: readonly ReleaseInput[], at: string): RecordReleasesResult {
    const result: RecordReleasesResult = { added: [], moved: [] };
    for (const release of releases) {
      const known = this.#sql.releaseByTag.get(release.upstream, release.tag) as ReleaseRow | undefined;
      if (known === undefined) {
        result.added.push(releaseFromRow(this.#sql.insertRelease.get({ ...release, at }) as ReleaseRow));
      } else if (known.commit_sha !== release.commit) {
        const moved = this.#sql.moveRelease.get({ id: known.id, commit: release.commit, at }) as ReleaseRow;
        result.moved.push({ release: releaseFromRow(moved), fromCommit: known.commit_sha });
      }
    }
    return result;
  }

  #start(input: BuildInput, at: string): BuildRecord {
    if (this.#sql.getRelease.get(input.releaseId) === undefined)
      throw new ReleaseNotFoundError(String(input.releaseId));
    const existing = this.#sql.buildByKey.get(input.buildKey) as BuildRow | undefined;
    if (existing !== undefined) this.#sql.deleteBuild.run(existing.id);
    return buildFromRow(this.#sql.insertBuild.get({ ...input, at }) as BuildRow);
  }

  #end(id: number, state: Exclude<BuildState, 'building'>, failureLines: readonly string[], at: string): BuildRecord {
    const row = this.#sql.endBuild.get({ id, state, failureLines: JSON.stringify(failureLines), at }) as
      BuildRow | undefined;
    if (row === undefined) throw new BuildNotFoundError(id);
    return buildFromRow(row);
  }
}
