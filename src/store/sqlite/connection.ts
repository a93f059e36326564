import type Database from 'better-sqlite3';
import { StoreClosedError } from '../errors.js';
import { diskFullError } from './disk-full.js';
import { readOnlyError } from './read-only.js';

/**
 * One open database, shared by the SQLite implementations of the store's roles. better-sqlite3 is synchronous; the
 * roles' methods are async only to share the backend-neutral Store contract. Writes use IMMEDIATE transactions so a
 * second process waits on busy_timeout instead of failing on a lock upgrade; reads use a deferred transaction so a
 * session's state and its samples come from one snapshot.
 */
export class SqliteConnection {
  #db: Database.Database | undefined;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Statements are prepared once, when the store is put together. */
  prepare(sql: string): Database.Statement {
    return this.live('prepare a statement').prepare(sql);
  }

  /** The database, or StoreClosedError naming what was tried once the store is closed. */
  live(operation: string): Database.Database {
    if (!this.#db) throw new StoreClosedError(operation);
    return this.#db;
  }

  /** A write that fails on a full disk or a read-only store rolls back and says so in one line. */
  write<T>(operation: string, body: () => T): T {
    const db = this.live(operation);
    try {
      return db.transaction(body).immediate();
    } catch (error) {
      throw diskFullError(db.name, error) ?? readOnlyError(db.name, error) ?? error;
    }
  }

  read<T>(operation: string, body: () => T): T {
    return this.live(operation).transaction(body).deferred();
  }

  /** Idempotent. */
  close(): void {
    const db = this.#db;
    this.#db = undefined;
    if (db?.open) db.close();
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * What each role's implementation is built on: the shared connection, its statements (prepared once, when the store
 * is put together) and its transactions. The role's own methods are the only public ones (see sqlite-store.ts).
 */
export abstract class SqliteRole {
  readonly #conn: SqliteConnection;

  constructor(conn: SqliteConnection) {
    this.#conn = conn;
  }

  protected get connection(): SqliteConnection {
    return this.#conn;
  }

  protected statements<K extends string>(texts: Record<K, string>): Record<K, Database.Statement> {
    return Object.fromEntries(
      Object.entries<string>(texts).map(([name, sql]) => [name, this.#conn.prepare(sql)]),
    ) as Record<K, Database.Statement>;
  }

  protected live(operation: string): Database.Database {
    return this.#conn.live(operation);
  }

  protected write<T>(operation: string, body: () => T): T {
    return this.#conn.write(operation, body);
  }

  protected read<T>(operation: string, body: () => T): T {
    return this.#conn.read(operation, body);
  }
}
