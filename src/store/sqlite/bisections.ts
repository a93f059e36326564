import type { BisectionInput, BisectionRecord, BisectionStore, BisectStepRecord } from '../bisection-types.js';
import { EventNotFoundError, ReleaseNotFoundError } from '../errors.js';
import type { MessageInput } from '../outbox-types.js';
import { checkId } from '../validate.js';
import { parseBisectionInput } from '../validate-bisection.js';
import { nowIso, SqliteRole } from './connection.js';
import { messageQueuer } from './outbox.js';

interface BisectionRow {
  id: number;
  release_id: number;
  good_release_id: number;
  build_profile: string;
  tests: string;
  commit_count: number;
  outcome: BisectionRecord['outcome'];
  first_bad_commit: string | null;
  first_bad_subject: string | null;
  first_bad_author: string | null;
  candidates: string;
  steps: string;
  builds: number;
  started_at: string;
  ended_at: string;
  event_id: number | null;
  error: string | null;
}

/** Bisections of regressed tags (bisections), one row per bisection, written when it ends. */
export class SqliteBisections extends SqliteRole implements BisectionStore {
  readonly #sql = this.statements({
    insert: `INSERT INTO bisections (release_id, good_release_id, build_profile, tests, commit_count, outcome,
        first_bad_commit, first_bad_subject, first_bad_author, candidates, steps, builds, started_at, ended_at,
        event_id, error)
      VALUES (@release_id, @good_release_id, @build_profile, @tests, @commit_count, @outcome, @first_bad_commit,
        @first_bad_subject, @first_bad_author, @candidates, @steps, @builds, @started_at, @ended_at, @event_id,
        @error)`,
    event: 'SELECT id FROM regression_events WHERE id = ?',
    release: 'SELECT id FROM releases WHERE id = ?',
    get: 'SELECT * FROM bisections WHERE id = ?',
    all: 'SELECT * FROM bisections ORDER BY id DESC LIMIT ?',
    ofRelease: 'SELECT * FROM bisections WHERE release_id = ? ORDER BY id DESC LIMIT ?',
  });

  readonly #queueMessage = messageQueuer(this.connection);

  async recordBisection(input: BisectionInput, message?: MessageInput): Promise<BisectionRecord> {
    const valid = parseBisectionInput(input);
    return this.write('record a bisection', () => {
      for (const id of [valid.releaseId, valid.goodReleaseId])
        if (this.#sql.release.get(id) === undefined) throw new ReleaseNotFoundError(`#${id}`);
      if (valid.eventId !== undefined && this.#sql.event.get(valid.eventId) === undefined)
        throw new EventNotFoundError(valid.eventId);
      if (message !== undefined) this.#queueMessage(message, nowIso());
      const { lastInsertRowid } = this.#sql.insert.run({
        release_id: valid.releaseId,
        good_release_id: valid.goodReleaseId,
        build_profile: valid.buildProfile,
        tests: JSON.stringify(valid.tests),
        commit_count: valid.commitCount,
        outcome: valid.outcome,
        first_bad_commit: valid.firstBad?.commit ?? null,
        first_bad_subject: valid.firstBad?.subject ?? null,
        first_bad_author: valid.firstBad?.author ?? null,
        candidates: JSON.stringify(valid.candidates),
        steps: JSON.stringify(valid.steps),
        builds: valid.builds,
        started_at: valid.startedAt,
        ended_at: valid.endedAt,
        event_id: valid.eventId ?? null,
        error: valid.error ?? null,
      });
      return fromRow(this.#sql.get.get(lastInsertRowid) as BisectionRow);
    });
  }

  async listBisections(query: { releaseId?: number; limit?: number } = {}): Promise<BisectionRecord[]> {
    const limit = checkId('bisection', 'limit', query.limit ?? 1000);
    return this.read('list bisections', () => {
      const rows =
        query.releaseId === undefined
          ? this.#sql.all.all(limit)
          : this.#sql.ofRelease.all(checkId('bisection', 'releaseId', query.releaseId), limit);
      return (rows as BisectionRow[]).map(fromRow);
    });
  }
}

function fromRow(row: BisectionRow): BisectionRecord {
  return {
    id: row.id,
    releaseId: row.release_id,
    goodReleaseId: row.good_release_id,
    buildProfile: row.build_profile,
    tests: JSON.parse(row.tests) as string[],
    commitCount: row.commit_count,
    outcome: row.outcome,
    ...(row.first_bad_commit !== null
      ? {
          firstBad: {
            commit: row.first_bad_commit,
            subject: row.first_bad_subject ?? '',
            author: row.first_bad_author ?? '',
          },
        }
      : {}),
    candidates: JSON.parse(row.candidates) as string[],
    steps: JSON.parse(row.steps) as BisectStepRecord[],
    builds: row.builds,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    ...(row.event_id !== null ? { eventId: row.event_id } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
  };
}
