import type Database from 'better-sqlite3';
import type { Store } from '../store.js';
import { storeOfRoles } from '../roles/store-of-roles.js';
import { SqliteConnection } from './connection.js';

/** The SQLite store: the roles (src/store/roles/) on one connection to an opened, migrated database. */
export function sqliteStore(db: Database.Database): Store {
  const conn = new SqliteConnection(db);
  return storeOfRoles('sqlite', conn.sql, async () => conn.close());
}
