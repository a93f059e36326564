import type Database from 'better-sqlite3';
import { DuplicateResultError } from '../errors.js';
import type { ImportedResultInput, ImportedResultRecord, ReleaseSampleRecord } from '../check-types.js';
import { perOpColumns, perOpFromRow, perOpParamNames, perOpParams, type PerOpRow } from './figure-columns.js';

interface ImportedRow extends PerOpRow {
  id: number;
  flavor: string;
  version: string;
  version_key: string;
  test: string;
  threads: number;
  qps: number;
  source: string;
  imported_at: string;
}

const importedFromRow = (r: ImportedRow): ImportedResultRecord => ({
  id: r.id,
  flavor: r.flavor,
  version: r.version,
  versionKey: r.version_key,
  test: r.test,
  threads: r.threads,
  qps: r.qps,
  ...perOpFromRow(r),
  source: r.source,
  importedAt: r.imported_at,
});

/**
 * One side of a done session that ran a release (a check, or a compare naming release tags), matched to the
 * release by its upstream and tag; sides of checks a person marked invalid are left out.
 */
const releaseSideSql = (role: 'baseline' | 'candidate') => `
  SELECT s.id AS session_id, s.host_id, r.id AS release_id, x.test, x.threads, x.qps,
         ${perOpColumns('h.')}
  FROM sessions s
  JOIN releases r ON r.upstream = json_extract(s.${role}_description, '$.upstream')
                 AND r.tag = json_extract(s.${role}_description, '$.tag')
  JOIN samples x ON x.session_id = s.id AND x.role = '${role}'
  JOIN host_metrics h ON h.sample_id = x.id
  WHERE s.state = 'done' AND json_extract(s.${role}_description, '$.kind') = 'release'
    AND r.upstream = @upstream
    AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.session_id = s.id AND c.invalid = 1)`;

/** Results imported from CSV, and the release samples history is made of. */
export class SqliteImported {
  readonly #sql;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      find: p('SELECT * FROM imported_results WHERE flavor = @flavor AND version = @version AND test = @test AND threads = @threads'),
      remove: p('DELETE FROM imported_results WHERE id = ?'),
      insert: p(`INSERT INTO imported_results (flavor, version, version_key, test, threads, qps, ${perOpColumns()}, source, imported_at)
        VALUES (@flavor, @version, @versionKey, @test, @threads, @qps, ${perOpParamNames()}, @source, @at)`),
      all: p('SELECT * FROM imported_results ORDER BY flavor, version_key, test, threads'),
      releaseSamples: p(`SELECT * FROM (${releaseSideSql('baseline')} UNION ALL ${releaseSideSql('candidate')}) ORDER BY session_id, release_id, test, threads`),
    };
  }

  /** All rows or none: a row already in the store is an error unless `replace`, which swaps it for the new one. */
  importResults(rows: readonly ImportedResultInput[], source: string, replace: boolean, at: string): { added: number; replaced: number } {
    let replaced = 0;
    for (const [index, row] of rows.entries()) {
      const existing = this.#sql.find.get(row) as ImportedRow | undefined;
      if (existing !== undefined && !replace) throw new DuplicateResultError(index, importedFromRow(existing));
      if (existing !== undefined) {
        this.#sql.remove.run(existing.id);
        replaced += 1;
      }
      const { flavor, version, versionKey, test, threads, qps } = row;
      this.#sql.insert.run({ flavor, version, versionKey, test, threads, qps, ...perOpParams(row), source, at });
    }
    return { added: rows.length - replaced, replaced };
  }

  list(): ImportedResultRecord[] {
    return (this.#sql.all.all() as ImportedRow[]).map(importedFromRow);
  }

  releaseSamples(upstream: string): ReleaseSampleRecord[] {
    return (this.#sql.releaseSamples.all({ upstream }) as Array<Record<string, number | string>>).map((r) => ({
      sessionId: Number(r['session_id']),
      hostId: Number(r['host_id']),
      releaseId: Number(r['release_id']),
      test: String(r['test']),
      threads: Number(r['threads']),
      qps: Number(r['qps']),
      ...perOpFromRow(r),
    }));
  }
}
