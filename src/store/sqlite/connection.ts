import type Database from 'better-sqlite3';
import { StoreClosedError } from '../errors.js';
import type { SqlDatabase, SqlTx } from '../sql.js';
import { sqliteDialect } from './dialect.js';
import { diskFullError } from './disk-full.js';
import { readOnlyError } from './read-only.js';

/**
 * One open database, shared by the store's roles (src/store/roles/) as `sql`. better-sqlite3 is synchronous, but a
 * role runs its transaction as an async body, which awaits between its statements; so every transaction on this
 * connection takes its turn (`#exclusive`): no statement of another can run inside one that is open, and one that
 * rolls back takes only its own changes with it. Writes use IMMEDIATE transactions so a second process waits on
 * busy_timeout instead of failing on a lock upgrade; reads use a deferred transaction so a session's state and its
 * samples come from one snapshot.
 */
export class SqliteConnection {
  #db: Database.Database | undefined;
  #turn: Promise<unknown> = Promise.resolve();
  readonly #statements = new Map<string, Database.Statement>();

  /** The connection as the roles see it. */
  readonly sql: SqlDatabase = {
    dialect: sqliteDialect,
    read: (operation, body) => this.#exclusive(() => this.#transaction(operation, 'DEFERRED', body)),
    write: (operation, body) => this.#exclusive(() => this.#transaction(operation, 'IMMEDIATE', body)),
  };

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The database, or StoreClosedError naming what was tried once the store is closed. */
  live(operation: string): Database.Database {
    if (!this.#db) throw new StoreClosedError(operation);
    return this.#db;
  }

  /** Idempotent. */
  close(): void {
    const db = this.#db;
    this.#db = undefined;
    this.#statements.clear();
    if (db?.open) db.close();
  }

  /** Runs `fn` once every transaction before it has ended, whether it failed or not. */
  #exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const turn = this.#turn.then(fn);
    this.#turn = turn.catch(() => undefined);
    return turn;
  }

  async #transaction<T>(
    operation: string,
    mode: 'DEFERRED' | 'IMMEDIATE',
    body: (tx: SqlTx) => Promise<T>,
  ): Promise<T> {
    const db = this.live(operation);
    try {
      db.exec(`BEGIN ${mode}`);
    } catch (error) {
      throw diskFullError(db.name, error) ?? readOnlyError(db.name, error) ?? error;
    }
    let result: T;
    try {
      result = await body(this.#tx(operation));
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw mode === 'IMMEDIATE' ? (diskFullError(db.name, error) ?? readOnlyError(db.name, error) ?? error) : error;
    }
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw diskFullError(db.name, error) ?? readOnlyError(db.name, error) ?? error;
    }
    return result;
  }

  #tx(operation: string): SqlTx {
    const statement = (sql: string): Database.Statement => {
      let prepared = this.#statements.get(sql);
      if (prepared === undefined) {
        prepared = this.live(operation).prepare(sql);
        this.#statements.set(sql, prepared);
      }
      return prepared;
    };
    return {
      rows: <R>(sql: string, params: unknown[] = []) => Promise.resolve(statement(sql).all(...params) as R[]),
      row: <R>(sql: string, params: unknown[] = []) => Promise.resolve(statement(sql).get(...params) as R | undefined),
      run: (sql: string, params: unknown[] = []) => {
        const { changes, lastInsertRowid } = statement(sql).run(...params);
        return Promise.resolve({ affectedRows: changes, insertId: Number(lastInsertRowid) });
      },
    };
  }
}
