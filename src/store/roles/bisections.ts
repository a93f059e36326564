import type { BisectionInput, BisectionRecord, BisectionStore, BisectStepRecord } from '../bisection-types.js';
import { EventNotFoundError, ReleaseNotFoundError } from '../errors.js';
import type { MessageInput } from '../outbox-types.js';
import { checkId } from '../validate.js';
import { parseBisectionInput } from '../validate-bisection.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { queueMessage } from './outbox.js';

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
export class Bisections extends SqlRole implements BisectionStore {
  async recordBisection(input: BisectionInput, message?: MessageInput): Promise<BisectionRecord> {
    const valid = parseBisectionInput(input);
    return this.write('record a bisection', async (tx) => {
      for (const id of [valid.releaseId, valid.goodReleaseId])
        if ((await tx.row('SELECT id FROM releases WHERE id = ?', [id])) === undefined)
          throw new ReleaseNotFoundError(`#${id}`);
      if (
        valid.eventId !== undefined &&
        (await tx.row('SELECT id FROM regression_events WHERE id = ?', [valid.eventId])) === undefined
      )
        throw new EventNotFoundError(valid.eventId);
      if (message !== undefined) await queueMessage(tx, this.dialect, message, nowIso());
      return insert(tx, valid);
    });
  }

  async listBisections(query: { releaseId?: number; limit?: number } = {}): Promise<BisectionRecord[]> {
    const limit = checkId('bisection', 'limit', query.limit ?? 1000);
    return this.read('list bisections', async (tx) => {
      const rows =
        query.releaseId === undefined
          ? await tx.rows<BisectionRow>('SELECT * FROM bisections ORDER BY id DESC LIMIT ?', [limit])
          : await tx.rows<BisectionRow>('SELECT * FROM bisections WHERE release_id = ? ORDER BY id DESC LIMIT ?', [
              checkId('bisection', 'releaseId', query.releaseId),
              limit,
            ]);
      return rows.map(fromRow);
    });
  }
}

async function insert(tx: SqlTx, valid: BisectionInput): Promise<BisectionRecord> {
  const { insertId } = await tx.run(
    `INSERT INTO bisections (release_id, good_release_id, build_profile, tests, commit_count, outcome,
        first_bad_commit, first_bad_subject, first_bad_author, candidates, steps, builds, started_at, ended_at,
        event_id, error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      valid.releaseId,
      valid.goodReleaseId,
      valid.buildProfile,
      JSON.stringify(valid.tests),
      valid.commitCount,
      valid.outcome,
      valid.firstBad?.commit ?? null,
      valid.firstBad?.subject ?? null,
      valid.firstBad?.author ?? null,
      JSON.stringify(valid.candidates),
      JSON.stringify(valid.steps),
      valid.builds,
      valid.startedAt,
      valid.endedAt,
      valid.eventId ?? null,
      valid.error ?? null,
    ],
  );
  return fromRow((await tx.row<BisectionRow>('SELECT * FROM bisections WHERE id = ?', [insertId]))!);
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
