import type Database from 'better-sqlite3';
import { SchemaTooNewError, StoreOpenError } from '../errors.js';
import { addFigureColumns } from './figure-columns.js';
import { latestVersion, migrations as shipped, type Migration } from './migrations.js';

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Refuses a file from a newer qpswatch, or a foreign database, before anything writes to it. */
export function checkSchemaVersion(db: Database.Database, path: string): void {
  const version = schemaVersion(db);
  if (version > latestVersion) throw new SchemaTooNewError(path, version, latestVersion);
  if (version === 0 && hasTables(db)) {
    throw new StoreOpenError(
      path,
      'it is an SQLite database with tables but no qpswatch schema version; use another path',
    );
  }
}

/**
 * Applies the missing migrations, each in its own write transaction, then adds the columns of figures the figure
 * table has and the store lacks (a figure needs no migration of its own); returns the resulting version.
 */
export function migrate(db: Database.Database, path: string, migrations: readonly Migration[] = shipped): number {
  const latest = migrations.at(-1)?.version ?? 0;
  for (const migration of migrations) applyIfMissing(db, path, migration, latest);
  addFigureColumns(db);
  return schemaVersion(db);
}

function applyIfMissing(db: Database.Database, path: string, migration: Migration, latest: number): void {
  // IMMEDIATE takes the write lock first, so two processes opening a fresh file cannot both apply the same step;
  // the version is re-read inside the lock.
  db.transaction(() => {
    const current = schemaVersion(db);
    if (current > latest) throw new SchemaTooNewError(path, current, latest);
    if (current >= migration.version) return;
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  }).immediate();
}

function hasTables(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get() !== undefined;
}
