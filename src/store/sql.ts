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
  /** The statements whose text differs between the backends. */
  readonly dialect: SqlDialect;
  read<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T>;
  write<T>(operation: string, body: (tx: SqlTx) => Promise<T>): Promise<T>;
}

/** A row to insert, or to update where a row with the same key is there already. */
export interface Upsert {
  table: string;
  /** Column names and values of the row, the key columns among them. */
  row: Record<string, unknown>;
  /** The columns of the unique key a row collides on. */
  key: readonly string[];
  /** The columns an existing row takes from `row`. */
  update: readonly string[];
  /** The table's id column, when the caller wants the row's id back, whether inserted or already there. */
  id?: string;
}

/** The statements that differ between SQLite and MySQL, each behind one method of the same meaning on both. */
export interface SqlDialect {
  /** Inserts `row`, or updates the existing row's `update` columns; the row's id when `id` names its column, else 0. */
  upsert(tx: SqlTx, upsert: Upsert): Promise<number>;
  /**
   * Appended to a SELECT inside a write whose rows the write then changes: MySQL's FOR UPDATE, so another store's
   * writer waits for them; nothing in SQLite, whose write transaction holds the whole database already.
   */
  readonly lockRows: string;
  /**
   * The column that orders a table's rows as written, in the tables with no id of their own (verdicts,
   * instruction_verdicts): SQLite's rowid; in MySQL, the AUTO_INCREMENT column seq its schema gives them.
   */
  readonly writtenOrder: string;
  /** Inserts `row` unless a row with the same `key` is there already, which stays as it is. */
  insertUnlessKey(tx: SqlTx, insert: Omit<Upsert, 'update' | 'id'>): Promise<void>;
}

/** What each role written once is built on: the database and its transactions. Its own methods are the public ones. */
export abstract class SqlRole {
  readonly #db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  protected get dialect(): SqlDialect {
    return this.#db.dialect;
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
