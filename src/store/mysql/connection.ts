import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { StoreClosedError } from '../errors.js';
import type { SqlDatabase, SqlTx } from '../sql.js';
import { mysqlDialect } from './dialect.js';

/** One pooled connection inside a transaction: the SqlTx every role is written against. */
export type MysqlTx = SqlTx;

/**
 * Set on every new connection: a value that does not fit its column is an error, as SQLite's CHECKs and types make
 * it one, never a silent truncation; whatever the server's own default is.
 */
const SESSION_SETUP = [
  "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO," +
    "NO_ENGINE_SUBSTITUTION'",
];

/** MySQL's deadlock (1213) and lock wait timeout (1205): the whole transaction may simply be run again. */
const RETRYABLE_ERRNOS = new Set([1213, 1205]);
const WRITE_ATTEMPTS = 5;

/**
 * The table whose one row every write transaction locks first (see write). The baseline migration creates it.
 * Exported for the schema, which must create it with its one row.
 */
export const WRITE_LOCK_TABLE = 'store_write_lock';

/**
 * The tables results are read from: a write that changes a row of one moves the results mark (store.resultsMark), as
 * SQLite's triggers do. Here the connection moves it, at the end of the write transaction that changed such a row,
 * so no TRIGGER privilege (nor SUPER, which MySQL asks for a trigger under binary logging) is needed. A statement is
 * seen as a write to the table it names first: INSERT INTO t, REPLACE INTO t, UPDATE t, DELETE [alias] FROM t.
 */
export const RESULT_TABLES: ReadonlySet<string> = new Set([
  'sessions',
  'releases',
  'checks',
  'verdicts',
  'regression_events',
  'hosts',
  'instruction_verdicts',
  'instruction_events',
]);
const WRITE_TARGET =
  /^\s*(?:INSERT(?:\s+IGNORE)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+IGNORE)?|DELETE(?:\s+\w+)?\s+FROM)\s+`?(\w+)`?/i;

/**
 * One MySQL or MariaDB store, shared by the MySQL implementations of the store's roles.
 *
 * The roles were written for SQLite, where a write transaction is IMMEDIATE: one writer at a time, which sees every
 * earlier commit, so read-check-write bodies need no row locks of their own. Each write here takes the same kind of
 * lock first (SELECT ... FOR UPDATE on the one row of store_write_lock) and runs at READ COMMITTED, so it too sees
 * every commit made before it got the lock. qpswatch writes a few rows a minute, so serialising writers costs
 * nothing, and a deadlock or lock wait timeout that still happens runs the whole body again.
 *
 * Reads run in a read-only transaction WITH CONSISTENT SNAPSHOT at REPEATABLE READ, so a session's state and its
 * samples come from one snapshot, as in SQLite's deferred read transaction.
 */
export class MysqlConnection implements SqlDatabase {
  readonly dialect = mysqlDialect;
  #pool: Pool | undefined;
  /** The driver's connections (by their core object, which outlives a pool checkout) already set up. */
  readonly #setUp = new WeakSet<object>();

  /** `label` names the store in errors (host/database, never a password). */
  constructor(
    pool: Pool,
    readonly label: string,
  ) {
    this.#pool = pool;
  }

  async read<T>(operation: string, body: (tx: MysqlTx) => Promise<T>): Promise<T> {
    return this.#withConnection(operation, async (conn) => {
      await conn.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      return finish(conn, body);
    });
  }

  async write<T>(operation: string, body: (tx: MysqlTx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#withConnection(operation, async (conn) => {
          await conn.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
          await conn.query('START TRANSACTION READ WRITE');
          const changes = { results: false };
          return finish(
            conn,
            async (tx) => {
              await tx.rows(`SELECT id FROM ${WRITE_LOCK_TABLE} WHERE id = 1 FOR UPDATE`);
              const result = await body(tx);
              if (changes.results) await tx.run('UPDATE results_mark SET n = n + 1 WHERE id = 1');
              return result;
            },
            changes,
          );
        });
      } catch (error) {
        if (attempt >= WRITE_ATTEMPTS || !isRetryable(error)) throw error;
        await sleep(20 * attempt + Math.floor(Math.random() * 20));
      }
    }
  }

  /**
   * Runs `body` on one pooled connection outside any transaction (the migration's named lock and its DDL, which
   * commits implicitly anyway).
   */
  async session<T>(operation: string, body: (tx: MysqlTx) => Promise<T>): Promise<T> {
    return this.#withConnection(operation, (conn) => body(txOf(conn)));
  }

  /** Idempotent; the pool's connections are closed once their current statement ends. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    if (pool) await pool.end();
  }

  async #withConnection<T>(operation: string, body: (conn: PoolConnection) => Promise<T>): Promise<T> {
    if (!this.#pool) throw new StoreClosedError(operation);
    const conn = await this.#pool.getConnection();
    let healthy = true;
    try {
      if (!this.#setUp.has(conn.connection)) {
        for (const sql of SESSION_SETUP) await conn.query(sql);
        this.#setUp.add(conn.connection);
      }
      return await body(conn);
    } catch (error) {
      healthy = !isFatal(error);
      throw error;
    } finally {
      if (healthy) conn.release();
      else conn.destroy();
    }
  }
}

/** Commits after `body`, or rolls back and rethrows; a connection whose rollback fails is reported fatal. */
async function finish<T>(
  conn: PoolConnection,
  body: (tx: MysqlTx) => Promise<T>,
  changes?: { results: boolean },
): Promise<T> {
  let result: T;
  try {
    result = await body(txOf(conn, changes));
  } catch (error) {
    try {
      await conn.query('ROLLBACK');
    } catch {
      markFatal(error);
    }
    throw error;
  }
  await conn.query('COMMIT');
  return result;
}

/** `changes.results` is set once a statement changes a row of a results table (see RESULT_TABLES). */
function txOf(conn: PoolConnection, changes?: { results: boolean }): MysqlTx {
  return {
    async rows<R>(sql: string, params: unknown[] = []): Promise<R[]> {
      const [rows] = await conn.query(sql, params);
      if (!Array.isArray(rows)) throw new Error(`expected rows from: ${sql.slice(0, 60)}`);
      return rows as R[];
    },
    async row<R>(sql: string, params: unknown[] = []): Promise<R | undefined> {
      const [rows] = await conn.query(sql, params);
      if (!Array.isArray(rows)) throw new Error(`expected rows from: ${sql.slice(0, 60)}`);
      return rows[0] as R | undefined;
    },
    async run(sql: string, params: unknown[] = []) {
      const [header] = await conn.query<ResultSetHeader>(sql, params);
      if (changes && !changes.results && header.affectedRows > 0) {
        const target = WRITE_TARGET.exec(sql)?.[1]?.toLowerCase();
        if (target !== undefined && RESULT_TABLES.has(target)) changes.results = true;
      }
      return { affectedRows: header.affectedRows, insertId: Number(header.insertId) };
    },
  };
}

const FATAL = Symbol('qpswatch.mysql.fatal');

function markFatal(error: unknown): void {
  if (typeof error === 'object' && error !== null) (error as Record<symbol, unknown>)[FATAL] = true;
}

function isFatal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return (error as { fatal?: unknown }).fatal === true || (error as Record<symbol, unknown>)[FATAL] === true;
}

function isRetryable(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' && RETRYABLE_ERRNOS.has(errno);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
