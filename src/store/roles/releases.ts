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
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { buildFromRow, releaseFromRow, type BuildRow, type ReleaseRow } from './release-rows.js';

/** The release and build tables. */
export class Releases extends SqlRole implements ReleaseStore {
  /** New tags are added; a known tag at a new commit is recorded as moved (its old commit kept in moved_from). */
  async recordReleases(releases: readonly ReleaseInput[]): Promise<RecordReleasesResult> {
    const valid = parseReleaseInputs(releases);
    return this.write('record releases', (tx) => recordAll(tx, valid, nowIso()));
  }

  async listReleases(upstream?: string): Promise<ReleaseRecord[]> {
    return this.read('list releases', async (tx) => {
      const rows = await tx.rows<ReleaseRow>(
        'SELECT * FROM releases WHERE (? IS NULL OR upstream = ?) ORDER BY upstream, version_key, tag',
        [upstream ?? null, upstream ?? null],
      );
      return rows.map(releaseFromRow);
    });
  }

  async findReleasesByTag(tag: string): Promise<ReleaseRecord[]> {
    const text = checkText('release', 'tag', tag);
    return this.read('find a release', async (tx) =>
      (await tx.rows<ReleaseRow>('SELECT * FROM releases WHERE tag = ? ORDER BY upstream', [text])).map(releaseFromRow),
    );
  }

  async getRelease(id: number): Promise<ReleaseRecord | undefined> {
    checkId('release', 'releaseId', id);
    return this.read('read a release', async (tx) => {
      const row = await releaseById(tx, id);
      return row && releaseFromRow(row);
    });
  }

  async getBuild(buildKey: string): Promise<BuildRecord | undefined> {
    const key = checkText('build', 'buildKey', buildKey);
    return this.read('read a build', async (tx) => {
      const row = await tx.row<BuildRow>('SELECT * FROM builds WHERE build_key = ?', [key]);
      return row && buildFromRow(row);
    });
  }

  /** A row for this key that failed, or whose builder died, is replaced: the caller decided to build again. */
  async startBuild(input: BuildInput): Promise<BuildRecord> {
    const build = parseBuildInput(input);
    return this.write('start a build', (tx) => startBuild(tx, build, nowIso()));
  }

  async finishBuild(id: number): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.write('finish a build', (tx) => endBuild(tx, id, 'built', [], nowIso()));
  }

  async failBuild(id: number, failureLines: readonly string[]): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.write('fail a build', (tx) => endBuild(tx, id, 'failed', failureLines, nowIso()));
  }

  async buildsOfRelease(releaseId: number): Promise<BuildRecord[]> {
    checkId('release', 'releaseId', releaseId);
    return this.read('list builds', async (tx) =>
      (await tx.rows<BuildRow>('SELECT * FROM builds WHERE release_id = ? ORDER BY id', [releaseId])).map(buildFromRow),
    );
  }

  async listBuilds(): Promise<BuildRecord[]> {
    return this.read('list builds', async (tx) =>
      (await tx.rows<BuildRow>('SELECT * FROM builds ORDER BY id')).map(buildFromRow),
    );
  }
}

function releaseById(tx: SqlTx, id: number): Promise<ReleaseRow | undefined> {
  return tx.row<ReleaseRow>('SELECT * FROM releases WHERE id = ?', [id]);
}

async function recordAll(tx: SqlTx, releases: readonly ReleaseInput[], at: string): Promise<RecordReleasesResult> {
  const result: RecordReleasesResult = { added: [], moved: [] };
  for (const release of releases) {
    const known = await tx.row<ReleaseRow>('SELECT * FROM releases WHERE upstream = ? AND tag = ?', [
      release.upstream,
      release.tag,
    ]);
    if (known === undefined) {
      const { insertId } = await tx.run(
        `INSERT INTO releases (upstream, flavor, tag, commit_sha, version, version_key, first_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [release.upstream, release.flavor, release.tag, release.commit, release.version, release.versionKey, at],
      );
      result.added.push(releaseFromRow((await releaseById(tx, insertId))!));
    } else if (known.commit_sha !== release.commit) {
      await tx.run('UPDATE releases SET moved_from = commit_sha, commit_sha = ?, moved_at = ? WHERE id = ?', [
        release.commit,
        at,
        known.id,
      ]);
      const moved = (await releaseById(tx, known.id))!;
      result.moved.push({ release: releaseFromRow(moved), fromCommit: known.commit_sha });
    }
  }
  return result;
}

async function startBuild(tx: SqlTx, input: BuildInput, at: string): Promise<BuildRecord> {
  if ((await releaseById(tx, input.releaseId)) === undefined) throw new ReleaseNotFoundError(String(input.releaseId));
  await tx.run('DELETE FROM builds WHERE build_key = ?', [input.buildKey]);
  const { insertId } = await tx.run(
    `INSERT INTO builds (release_id, build_key, profile, compiler, state, install_dir, log_file, pid, started_at)
     VALUES (?, ?, ?, ?, 'building', ?, ?, ?, ?)`,
    [input.releaseId, input.buildKey, input.profile, input.compiler, input.installDir, input.logFile, input.pid, at],
  );
  return buildFromRow((await tx.row<BuildRow>('SELECT * FROM builds WHERE id = ?', [insertId]))!);
}

async function endBuild(
  tx: SqlTx,
  id: number,
  state: Exclude<BuildState, 'building'>,
  failureLines: readonly string[],
  at: string,
): Promise<BuildRecord> {
  const row = await tx.row<BuildRow>("SELECT * FROM builds WHERE id = ? AND state = 'building'", [id]);
  if (row === undefined) throw new BuildNotFoundError(id);
  // From the two ISO timestamps, to the millisecond.
  const seconds = (Date.parse(at) - Date.parse(row.started_at)) / 1000;
  await tx.run('UPDATE builds SET state = ?, error_lines = ?, ended_at = ?, duration_seconds = ? WHERE id = ?', [
    state,
    JSON.stringify(failureLines),
    at,
    seconds,
    id,
  ]);
  return buildFromRow((await tx.row<BuildRow>('SELECT * FROM builds WHERE id = ?', [id]))!);
}
