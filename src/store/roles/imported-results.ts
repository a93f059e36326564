import { DuplicateResultError } from '../errors.js';
import type { ImportedResultInput, ImportedResultRecord, ResultsStore } from '../result-types.js';
import { parseImportedResults } from '../validate-results.js';
import { checkText } from '../validate.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { perOpColumns, perOpFromRow, perOpPlaceholders, perOpValues, type PerOpRow } from './figure-row.js';

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
export class ImportedResults extends SqlRole implements Pick<ResultsStore, 'importResults' | 'listImportedResults'> {
  /** All rows or none: a row already in the store is an error unless `replace`, which swaps it for the new one. */
  async importResults(
    rows: readonly ImportedResultInput[],
    source: string,
    options: { replace?: boolean } = {},
  ): Promise<{ added: number; replaced: number }> {
    const valid = parseImportedResults(rows);
    checkText('result', 'source', source);
    return this.write('import results', (tx) => importAll(tx, valid, source, options.replace === true, nowIso()));
  }

  async listImportedResults(): Promise<ImportedResultRecord[]> {
    return this.read('list imported results', async (tx) =>
      (await tx.rows<ImportedRow>('SELECT * FROM imported_results ORDER BY flavor, version_key, test, threads')).map(
        importedFromRow,
      ),
    );
  }
}

async function importAll(
  tx: SqlTx,
  rows: readonly ImportedResultInput[],
  source: string,
  replace: boolean,
  at: string,
): Promise<{ added: number; replaced: number }> {
  let replaced = 0;
  for (const [index, row] of rows.entries()) {
    const existing = await tx.row<ImportedRow>(
      'SELECT * FROM imported_results WHERE flavor = ? AND version = ? AND test = ? AND threads = ?',
      [row.flavor, row.version, row.test, row.threads],
    );
    if (existing !== undefined && !replace) throw new DuplicateResultError(index, importedFromRow(existing));
    if (existing !== undefined) {
      await tx.run('DELETE FROM imported_results WHERE id = ?', [existing.id]);
      replaced += 1;
    }
    await tx.run(
      `INSERT INTO imported_results (flavor, version, version_key, test, threads, qps, ${perOpColumns()}, source,
         imported_at)
       VALUES (?, ?, ?, ?, ?, ?, ${perOpPlaceholders()}, ?, ?)`,
      [row.flavor, row.version, row.versionKey, row.test, row.threads, row.qps, ...perOpValues(row), source, at],
    );
  }
  return { added: rows.length - replaced, replaced };
}
