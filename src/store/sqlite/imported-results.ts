import { DuplicateResultError } from '../errors.js';
import type { ImportedResultInput, ImportedResultRecord, ResultsStore } from '../result-types.js';
import { parseImportedResults } from '../validate-results.js';
import { checkText } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
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

/** Results imported from CSV (an earlier study, another store). */
export class SqliteImportedResults
  extends SqliteRole
  implements Pick<ResultsStore, 'importResults' | 'listImportedResults'>
{
  readonly #sql = this.statements({
    find:
      'SELECT * FROM imported_results WHERE flavor = @flavor AND version = ' +
      '@version AND test = @test AND threads = @threads',
    remove: 'DELETE FROM imported_results WHERE id = ?',
    insert: `INSERT INTO imported_results (flavor, version, version_key, test, threads, qps, ${perOpColumns()}, source,
      imported_at)
      VALUES (@flavor, @version, @versionKey, @test, @threads, @qps, ${perOpParamNames()}, @source, @at)`,
    all: 'SELECT * FROM imported_results ORDER BY flavor, version_key, test, threads',
  });

  /** All rows or none: a row already in the store is an error unless `replace`, which swaps it for the new one. */
  async importResults(
    rows: readonly ImportedResultInput[],
    source: string,
    options: { replace?: boolean } = {},
  ): Promise<{ added: number; replaced: number }> {
    const valid = parseImportedResults(rows);
    checkText('result', 'source', source);
    return this.write('import results', () => this.#import(valid, source, options.replace === true, nowIso()));
  }

  async listImportedResults(): Promise<ImportedResultRecord[]> {
    return this.read('list imported results', () => (this.#sql.all.all() as ImportedRow[]).map(importedFromRow));
  }

  #import(
    rows: readonly ImportedResultInput[],
    source: string,
    replace: boolean,
    at: string,
  ): { added: number; replaced: number } {
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
}
