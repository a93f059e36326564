import { readTrustedText, UnreadableFileError } from '../../trust/index.js';
import { createPool, type PoolOptions } from 'mysql2/promise';
import { SchemaTooOldError, StoreError, StoreOpenError } from '../errors.js';
import type { Store } from '../store.js';
import { MysqlConnection } from './connection.js';
import { missingFigureColumns } from './figure-columns.js';
import { packDoneSessions } from '../roles/figure-packs.js';
import { checkSchemaVersion, migrate } from './migrate.js';
import { mysqlLatestVersion } from './schema.js';
import { storeOfRoles } from '../roles/store-of-roles.js';

export type MysqlTls = 'off' | 'on' | 'verify';

export interface MysqlStoreOptions {
  backend: 'mysql';
  /** A TCP host; ignored when `socket` is set. Default 127.0.0.1. */
  host?: string;
  /** Default 3306. */
  port?: number;
  /** A unix socket of a server on this host; wins over host and port. */
  socket?: string;
  user: string;
  /** From QPSWATCH_STORE_PASSWORD or store_password_file (config); never in a URL, a log or an error. */
  password?: string;
  /** The database, made beforehand by its administrator (CREATE DATABASE); qpswatch makes the tables. */
  database: string;
  /** off: plain; on: encrypted, any certificate; verify: encrypted, the certificate checked against tlsCa. */
  tls?: MysqlTls;
  /** A PEM file of the CA that signed the server's certificate; without it, the system's CAs (tls verify). */
  tlsCa?: string;
  /** As for SQLite: nothing is created or migrated, and a store from an older qpswatch is refused. */
  readonly?: boolean;
  /** Connections the pool keeps at most; default 4 (one writer at a time, and a few readers). */
  connectionLimit?: number;
}

/** How the store is named in messages: the server, the user and the database, never the password. */
export function mysqlStoreLabel(options: MysqlStoreOptions): string {
  const where =
    options.socket !== undefined
      ? `localhost/${options.database}?socket=${options.socket}`
      : `${options.host ?? '127.0.0.1'}:${options.port ?? 3306}/${options.database}`;
  return `mysql://${options.user}@${where}`;
}

/** Opens a MySQL or MariaDB store: connects, refuses a newer schema, migrates (unless read-only), packs. */
export async function openMysqlStore(options: MysqlStoreOptions): Promise<Store> {
  const label = mysqlStoreLabel(options);
  const conn = new MysqlConnection(createPool(poolOptions(options, label)), label);
  try {
    if (options.readonly === true) await checkReadable(conn, label);
    else {
      await migrate(conn, label);
      await packDoneSessions(conn);
    }
    return storeOfRoles('mysql', conn, () => conn.close());
  } catch (error) {
    await conn.close().catch(() => undefined);
    throw mysqlOpenError(error, options);
  }
}

/**
 * A connection to the store's database with the store's settings, and nothing created, migrated or checked: for the
 * store's own tools (store copy), which check the schema themselves. Fails as openMysqlStore does, in one line.
 */
export async function connectMysqlDatabase(options: MysqlStoreOptions): Promise<MysqlConnection> {
  const label = mysqlStoreLabel(options);
  const conn = new MysqlConnection(createPool(poolOptions(options, label)), label);
  try {
    await conn.session('connect to the store', (tx) => tx.row('SELECT 1 AS yes'));
    return conn;
  } catch (error) {
    await conn.close().catch(() => undefined);
    throw mysqlOpenError(error, options);
  }
}

function poolOptions(options: MysqlStoreOptions, label: string): PoolOptions {
  const where =
    options.socket !== undefined
      ? { socketPath: options.socket }
      : { host: options.host ?? '127.0.0.1', port: options.port ?? 3306 };
  return {
    ...where,
    user: options.user,
    password: options.password ?? '',
    database: options.database,
    ssl: sslOptions(options, label),
    charset: 'UTF8MB4_BIN',
    // Rows as plain objects; BIGINT and DOUBLE as JS numbers (a BIGINT past 2^53 as text, never rounded);
    // timestamps are text columns anyway.
    rowsAsArray: false,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: true,
    dateStrings: true,
    typeCast: exactDoubles,
    multipleStatements: false,
    namedPlaceholders: false,
    connectionLimit: options.connectionLimit ?? 4,
    waitForConnections: true,
    connectTimeout: 10_000,
    enableKeepAlive: true,
  };
}

/**
 * DOUBLE (and FLOAT) from its text as JavaScript parses it, correctly rounded. mysql2's own parser of the text
 * protocol adds the digits up one by one and can come back one unit in the last place off (900.9666666666667 read
 * as 900.9666666666668), so a row would not read back as it was written, nor equal its SQLite twin.
 */
const exactDoubles: NonNullable<PoolOptions['typeCast']> = (field, next) => {
  if (field.type !== 'DOUBLE' && field.type !== 'FLOAT') return next();
  const text = field.string();
  return text === null ? null : Number(text);
};

function sslOptions(options: MysqlStoreOptions, label: string): PoolOptions['ssl'] {
  switch (options.tls ?? 'off') {
    case 'off':
      return undefined;
    case 'on':
      return { rejectUnauthorized: false };
    case 'verify':
      return { rejectUnauthorized: true, ...(options.tlsCa === undefined ? {} : { ca: readCa(options.tlsCa, label) }) };
  }
}

/** The CA decides whom the store's password is sent to: one another user could change is refused (trust). */
function readCa(path: string, label: string): Buffer {
  try {
    return Buffer.from(
      readTrustedText(path, { what: 'store_tls_ca', elsewhere: "name a CA file of root's", maxBytes: 1024 * 1024 }),
    );
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw new StoreOpenError(label, (error as Error).message);
    throw new StoreOpenError(label, `store_tls_ca ${path} cannot be read (${error.code}); name a readable PEM file`);
  }
}

/** A read-only open neither migrates nor adds figure columns: it needs the store at this qpswatch's version. */
async function checkReadable(conn: MysqlConnection, label: string): Promise<void> {
  await conn.session('open the store', async (tx) => {
    const version = await checkSchemaVersion(tx, label);
    if (version < mysqlLatestVersion) throw new SchemaTooOldError(label, version, mysqlLatestVersion);
    const missing = await missingFigureColumns(tx);
    if (missing.length > 0)
      throw new StoreOpenError(
        label,
        `it lacks the columns of newer figures (${missing.map((m) => `${m.table}.${m.column}`).join(', ')}), ` +
          'and this command may not add them: run a command that writes, or restart the daemon',
      );
  });
}

/**
 * The driver's error as one line naming the server, user and database: what failed and what to do. The driver's
 * own error is not kept as the cause, so nothing of the connection's settings can reach a log.
 */
export function mysqlOpenError(error: unknown, options: MysqlStoreOptions): StoreError {
  if (error instanceof StoreError) return error;
  const label = mysqlStoreLabel(options);
  const e = error as { code?: unknown; errno?: unknown; sqlMessage?: unknown };
  const code = typeof e.code === 'string' ? e.code : 'unknown';
  const reason = (() => {
    switch (code) {
      case 'ER_ACCESS_DENIED_ERROR':
      case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
        return (
          `the server refused user ${options.user} (${options.password ? 'with' : 'without'} a password): ` +
          'check store_user and QPSWATCH_STORE_PASSWORD or store_password_file'
        );
      case 'ER_DBACCESS_DENIED_ERROR':
      case 'ER_TABLEACCESS_DENIED_ERROR':
        return `user ${options.user} may not use database ${options.database}: grant it ALL ON ${options.database}.*`;
      case 'ER_BAD_DB_ERROR':
        return `database ${options.database} does not exist: create it (CREATE DATABASE ${options.database})`;
      case 'ECONNREFUSED':
      case 'ENOENT':
      case 'EHOSTUNREACH':
      case 'ENOTFOUND':
      case 'ETIMEDOUT':
        return `no server answers there (${code}): check store_url, store_host, store_port or store_socket`;
      default:
        return typeof e.sqlMessage === 'string' ? `${code}: ${e.sqlMessage}` : `${code}: ${describe(error)}`;
    }
  })();
  // No driver message is known to repeat the password; should one ever, it is cut out here.
  const password = options.password ?? '';
  return new StoreOpenError(label, password === '' ? reason : reason.split(password).join('(password)'));
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
