import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StoreOpenError } from '../errors.js';
import { schemaVersion } from '../sqlite/migrate.js';
import type { SourceValue } from './values.js';

export interface SourceTable {
  name: string;
  columns: string[];
  /** The table has no rowid (WITHOUT ROWID): pages are then read in the order of `primaryKey`. */
  withoutRowid: boolean;
  primaryKey: string[];
}

export type SourceRow = Record<string, SourceValue>;

/** The alias of rowid in a page's rows: a table's own columns never start with it. */
const ROWID = 'qpswatch_copy_rowid';

/**
 * An SQLite store opened read-only, inside one read transaction from open to close: every table is read from one
 * snapshot, even while a daemon writes the file. Nothing is written: no migration, no recovery, no WAL checkpoint.
 */
export class SqliteSource {
  readonly #db: Database.Database;

  private constructor(
    db: Database.Database,
    readonly path: string,
  ) {
    this.#db = db;
  }

  static open(path: string): SqliteSource {
    if (!existsSync(path))
      throw new StoreOpenError(path, 'there is no such file; name the SQLite store with --from sqlite:PATH');
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
      db.exec('BEGIN DEFERRED');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return new SqliteSource(db, path);
    } catch (error) {
      db?.close();
      const text = error instanceof Error ? error.message : String(error);
      throw new StoreOpenError(path, `${text}; name an SQLite store qpswatch wrote`);
    }
  }

  /** PRAGMA user_version: the qpswatch schema version of the file (0: none). */
  version(): number {
    return schemaVersion(this.#db);
  }

  /** The tables, as created (which is foreign-key order), without SQLite's own (sqlite_*). */
  tables(): SourceTable[] {
    const rows = this.#db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
      .all() as Array<{ name: string; sql: string | null }>;
    return rows.map(({ name, sql }) => {
      const info = this.#db.prepare(`PRAGMA table_info(${quote(name)})`).all() as Array<{ name: string; pk: number }>;
      return {
        name,
        columns: info.map((c) => c.name),
        withoutRowid: /\bWITHOUT\s+ROWID\s*$/i.test(sql ?? ''),
        primaryKey: info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
      };
    });
  }

  count(table: string): number {
    const row = this.#db.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number };
    return row.n;
  }

  /** Rows of `table` where `column` holds a value. */
  countNonNull(table: string, column: string): number {
    const sql = `SELECT count(*) AS n FROM ${quote(table)} WHERE ${quote(column)} IS NOT NULL`;
    return (this.#db.prepare(sql).get() as { n: number }).n;
  }

  /**
   * The rows of `table` (the columns named), `size` a page, in rowid order (the order they were written, which
   * keeps verdicts in theirs). Pages are read by key, so no statement stays open while the caller writes elsewhere.
   */
  *pages(table: SourceTable, columns: readonly string[], size: number): Generator<SourceRow[]> {
    const list = columns.map(quote).join(', ');
    if (table.withoutRowid) {
      // Rare (qpswatch makes none): one page of every row, in key order.
      const order = table.primaryKey.map(quote).join(', ');
      const all = this.#statement(`SELECT ${list} FROM ${quote(table.name)} ORDER BY ${order}`).all() as SourceRow[];
      for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
      return;
    }
    const page = this.#statement(
      `SELECT rowid AS ${ROWID}, ${list} FROM ${quote(table.name)} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    );
    for (let after: bigint | number = -1; ;) {
      const rows = page.all(after, size) as Array<SourceRow & { [ROWID]: bigint }>;
      if (rows.length === 0) return;
      after = rows.at(-1)![ROWID];
      yield rows.map(({ [ROWID]: _rowid, ...row }) => row as SourceRow);
      if (rows.length < size) return;
    }
  }

  /** Ends the read transaction and closes the file. Idempotent. */
  close(): void {
    if (!this.#db.open) return;
    try {
      if (this.#db.inTransaction) this.#db.exec('COMMIT');
    } finally {
      this.#db.close();
    }
  }

  #statement(sql: string): Database.Statement {
    // Integers come as bigint: a BIGINT past 2^53 is copied whole (values.ts brings it to the target's kind).
    return this.#db.prepare(sql).safeIntegers(true);
  }
}

export function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
