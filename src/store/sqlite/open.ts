import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError, StoreOpenError } from '../errors.js';
import type { Store } from '../store.js';
import { checkSchemaVersion, migrate } from './migrate.js';
import { SqliteStore } from './sqlite-store.js';

export interface SqliteStoreOptions {
  backend: 'sqlite';
  /** The database file; its folder is created when missing. */
  path: string;
  /** How long a write waits for another process's lock before failing; default 10 s. */
  busyTimeoutMs?: number;
}

export const defaultBusyTimeoutMs = 10_000;

/** Opens (creating when missing) and migrates an SQLite store. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const path = resolve(options.path);
  const db = connect(path);
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? defaultBusyTimeoutMs))}`);
    // The version is checked before any pragma that writes (journal_mode), so a newer file stays byte for byte.
    checkSchemaVersion(db, path);
    setUp(db, path);
    migrate(db, path);
    return new SqliteStore(db);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreOpenError(path, describe(error), { cause: error });
  }
}

function connect(path: string): Database.Database {
  try {
    mkdirSync(dirname(path), { recursive: true });
    return new Database(path);
  } catch (error) {
    throw new StoreOpenError(path, describe(error), { cause: error });
  }
}

function setUp(db: Database.Database, path: string): void {
  // WAL lets `qpswatch status` read while the daemon writes; FULL sync is cheap at a few writes a minute and keeps
  // the last committed sample across a power cut, not only across a killed process.
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new StoreOpenError(path, `journal_mode WAL was refused (got "${String(mode)}"); use a file on a local disk`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
