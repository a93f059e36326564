import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SchemaTooOldError, StoreError, StoreOpenError } from '../errors.js';
import type { Store } from '../store.js';
import { diskFullError } from './disk-full.js';
import { readOnlyError } from './read-only.js';
import { missingFigureColumns } from './figure-columns.js';
import { SqliteConnection } from './connection.js';
import { packDoneSessions } from '../roles/figure-packs.js';
import { checkSchemaVersion, migrate, schemaVersion } from './migrate.js';
import { latestVersion } from './migrations.js';
import { sqliteStore } from './sqlite-store.js';

export interface SqliteStoreOptions {
  backend: 'sqlite';
  /** The database file; its folder is created when missing. */
  path: string;
  /** How long a write waits for another process's lock before failing; default 10 s. */
  busyTimeoutMs?: number;
  /**
   * Opens an existing file for reading only: nothing is created, migrated or recovered, and a user who may only
   * read the file (not its folder) can use it. Writes then fail with SQLITE_READONLY.
   */
  readonly?: boolean;
}

export const defaultBusyTimeoutMs = 10_000;

/** Opens (creating when missing) and migrates an SQLite store. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const path = resolve(options.path);
  if (options.readonly === true) return openReadOnly(path);
  const db = connect(path);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? defaultBusyTimeoutMs))}`);
    // The version is checked before any pragma that writes (journal_mode), so a newer file stays byte for byte.
    checkSchemaVersion(db, path);
    setUp(db, path);
    migrate(db, path);
    // Before the store is handed out, so no role waits on these turns.
    await packDoneSessions(new SqliteConnection(db).sql);
    return sqliteStore(db);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw (
      diskFullError(path, error) ??
      readOnlyError(path, error) ??
      new StoreOpenError(path, describe(error), { cause: error })
    );
  }
}

function connect(path: string): Database.Database {
  try {
    mkdirSync(dirname(path), { recursive: true });
    return new Database(path);
  } catch (error) {
    throw readOnlyError(path, error) ?? new StoreOpenError(path, describe(error), { cause: error });
  }
}

function openReadOnly(path: string): Store {
  let db: Database.Database | undefined;
  try {
    db = connectReadOnly(path);
    checkSchemaVersion(db, path);
    const version = schemaVersion(db);
    if (version < latestVersion) throw new SchemaTooOldError(path, version, latestVersion);
    requireFigureColumns(db, path);
    return sqliteStore(db);
  } catch (error) {
    db?.close();
    if (error instanceof StoreError) throw error;
    throw new StoreOpenError(path, describe(error), { cause: error });
  }
}

/** A read-only open may not add the columns of figures newer than the store: the reads would name them. */
function requireFigureColumns(db: Database.Database, path: string): void {
  const missing = missingFigureColumns(db);
  if (missing.length === 0) return;
  throw new StoreOpenError(
    path,
    `it lacks the columns of newer figures (${missing.map((m) => `${m.table}.${m.column}`).join(', ')}), and this ` +
      'command may not add them: restart the daemon (systemctl restart qpswatch) or run a command that writes, as ' +
      'a user who can write the store',
  );
}

/**
 * A reader of a WAL file needs its -shm file, and creates it (in the file's folder) when the last writer has closed.
 * A user who cannot write that folder then reads a copy in memory instead: with no -wal file, the last writer
 * checkpointed everything into the main file. The copy's header says "rollback journal" (bytes 18 and 19), since
 * an in-memory database cannot be in WAL mode; the file itself is never touched.
 */
function connectReadOnly(path: string): Database.Database {
  if (!existsSync(path)) throw new StoreOpenError(path, 'it does not exist');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    schemaVersion(db);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    const noSharedMemory = code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN';
    if (!noSharedMemory || existsSync(`${path}-wal`)) throw error;
    const copy = readFileSync(path);
    if (copy.length >= 20 && copy[18] === 2 && copy[19] === 2) copy.fill(1, 18, 20);
    return new Database(copy, { readonly: true });
  }
}

function setUp(db: Database.Database, path: string): void {
  // WAL lets `qpswatch status` read while the daemon writes; FULL sync is cheap at a few writes a minute and keeps
  // the last committed sample across a power cut, not only across a killed process.
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal')
    throw new StoreOpenError(path, `journal_mode WAL was refused (got "${String(mode)}"); use a file on a local disk`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
