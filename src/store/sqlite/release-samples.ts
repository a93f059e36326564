import { isMemorySetting } from '../../model/index.js';
import type { ReleaseSampleRecord, ResultsStore } from '../result-types.js';
import { checkText } from '../validate.js';
import { SqliteRole } from './connection.js';
import { perOpColumns, perOpFromRow } from './figure-columns.js';

/**
 * One side of a done session that ran a release (a check, or a compare naming release tags), matched to the
 * release by its upstream and tag; sides of checks a person marked invalid are left out. A session run under a memory
 * setting (io-bound, cached) gives its samples that setting: history keeps them apart from the others.
 */
const releaseSideSql = (role: 'baseline' | 'candidate') => `
  SELECT s.id AS session_id, s.host_id, r.id AS release_id, x.test, x.threads, x.qps,
         json_extract(s.settings, '$.memory') AS memory,
         ${perOpColumns('h.')}
  FROM sessions s
  JOIN releases r ON r.upstream = json_extract(s.${role}_description, '$.upstream')
                 AND r.tag = json_extract(s.${role}_description, '$.tag')
  JOIN samples x ON x.session_id = s.id AND x.role = '${role}'
  JOIN host_metrics h ON h.sample_id = x.id
  WHERE s.state = 'done' AND json_extract(s.${role}_description, '$.kind') = 'release'
    AND r.upstream = @upstream
    AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.session_id = s.id AND c.invalid = 1)`;

/** The samples of done sessions that ran a release: what history (and /metrics) is made of. */
export class SqliteReleaseSamples extends SqliteRole implements Pick<ResultsStore, 'releaseSamples'> {
  readonly #sql = this.statements({
    releaseSamples:
      `SELECT * FROM (${releaseSideSql('baseline')} UNION ALL ` +
      `${releaseSideSql('candidate')}) ORDER BY session_id, release_id, test, ` +
      `threads`,
  });

  async releaseSamples(upstream: string): Promise<ReleaseSampleRecord[]> {
    return this.read('read release samples', () =>
      (
        this.#sql.releaseSamples.all({ upstream: checkText('release', 'upstream', upstream) }) as Array<
          Record<string, number | string>
        >
      ).map((r) => ({
        sessionId: Number(r['session_id']),
        hostId: Number(r['host_id']),
        releaseId: Number(r['release_id']),
        test: String(r['test']),
        threads: Number(r['threads']),
        ...(isMemorySetting(r['memory']) ? { memory: r['memory'] } : {}),
        qps: Number(r['qps']),
        ...perOpFromRow(r),
      })),
    );
  }
}
