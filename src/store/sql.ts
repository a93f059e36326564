/**
 * What a store role written once sees of either backend (src/store/roles/): one transaction at a time, `?`
 * placeholders, rows as plain objects. SQLite (sqlite/connection.ts) and MySQL (mysql/connection.ts) each give it;
 * the statements that differ between them live in each backend's dialect, never in a role.
 */
export interface SqlTx {
  rows<R>(sql: string, params?: unknown[]): Promise<R[]>;
  row<R>(sql: string, params?: unknown[]): Promise<R | undefined>;
  /** insertId: the id of the row the statement inserted (SQLite's rowid, MySQL's AUTO_INCREMENT). */
  run(sql: string, params?: unknown[]): Promise<{ affectedRows: number; insertId: number }>;
}

/**
 * A store's database as the roles written once use it. A read sees one snapshot; a write is one transaction that
 * commits or rolls back whole, and writers take turns, so a body may read, check and write with no locks of its own.
 * A body uses only its `tx`: calling another role's method from inside one would wait for the turn it holds.
 */
export interface SqlDatabase {
  read<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T>;
  write<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T>;
}

/** What each role written once is built on: the database and its transactions. Its own methods are the public ones. */
export abstract class SqlRole {
  readonly #db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  protected read<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.#db.read(operation, body);
  }

  protected write<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.#db.write(operation, body);
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}
