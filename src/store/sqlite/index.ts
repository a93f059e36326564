export { openSqliteStore, defaultBusyTimeoutMs, type SqliteStoreOptions } from './open.js';
export { latestVersion as sqliteSchemaVersion } from './migrations.js';
