import { SchemaTooNewError, StoreOpenError } from '../errors.js';
import type { MysqlConnection, MysqlTx } from './connection.js';
import { addFigureColumns } from './figure-columns.js';
import { mysqlLatestVersion, mysqlMigrations, VERSION_TABLE_STEPS, type MysqlMigration } from './schema.js';

/**
 * A named lock per database (its name cut to the lock name's 64 characters): two hosts opening one empty database
 * take turns; stores in other databases of the server do not wait for each other.
 */
const MIGRATE_LOCK = 'qpswatch_migrate';
const MIGRATE_LOCK_SQL = `CONCAT('${MIGRATE_LOCK}:', LEFT(DATABASE(), 47))`;
const MIGRATE_LOCK_SECONDS = 60;

/** The database's schema version; 0 for a database without the schema_version table (empty, or not ours). */
export async function schemaVersion(tx: MysqlTx): Promise<number> {
  if (!(await hasTable(tx, 'schema_version'))) return 0;
  const row = await tx.row<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
  return Number(row?.version ?? 0);
}

/** Refuses a database of a newer qpswatch, or a foreign one (tables, none of them ours), before anything writes. */
export async function checkSchemaVersion(tx: MysqlTx, label: string, latest = mysqlLatestVersion): Promise<number> {
  const version = await schemaVersion(tx);
  if (version > latest) throw new SchemaTooNewError(label, version, latest);
  if (version === 0 && !(await hasTable(tx, 'schema_version')) && (await tableCount(tx)) > 0) {
    throw new StoreOpenError(
      label,
      'the database has tables but no qpswatch schema_version table; give qpswatch a database of its own',
    );
  }
  return version;
}

/**
 * Applies the missing migrations and adds the columns of figures the figure table has and the store lacks, under
 * the named lock GET_LOCK(qpswatch_migrate), with the version read again inside it: a second process waits, then
 * finds the work done. MySQL's DDL commits on its own, so each step is safe to run again (a process killed half way
 * leaves the version below the migration, which then runs whole again). Returns the resulting version.
 */
export async function migrate(
  conn: MysqlConnection,
  label: string,
  migrations: readonly MysqlMigration[] = mysqlMigrations,
): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  return conn.session('migrate the store', async (tx) => {
    const got = await tx.row<{ got: number | null }>(`SELECT GET_LOCK(${MIGRATE_LOCK_SQL}, ?) AS got`, [
      MIGRATE_LOCK_SECONDS,
    ]);
    if (Number(got?.got) !== 1)
      throw new StoreOpenError(
        label,
        `another qpswatch held the migration lock (${MIGRATE_LOCK}) for ${MIGRATE_LOCK_SECONDS} s; ` +
          'try again once it has opened the store',
      );
    try {
      let version = await checkSchemaVersion(tx, label, latest);
      for (const step of VERSION_TABLE_STEPS) await tx.run(step);
      for (const migration of migrations) {
        if (version >= migration.version) continue;
        for (const step of migration.steps) await runStep(tx, step);
        await tx.run('UPDATE schema_version SET version = ? WHERE id = 1', [migration.version]);
        version = migration.version;
      }
      await addFigureColumns(tx);
      return version;
    } finally {
      await tx.row(`SELECT RELEASE_LOCK(${MIGRATE_LOCK_SQL}) AS released`);
    }
  });
}

async function hasTable(tx: MysqlTx, name: string): Promise<boolean> {
  const row = await tx.row(
    'SELECT 1 AS yes FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [name],
  );
  return row !== undefined;
}

async function tableCount(tx: MysqlTx): Promise<number> {
  const row = await tx.row<{ n: number }>(
    'SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()',
  );
  return Number(row?.n ?? 0);
}

/** MySQL's and MariaDB's error number for a column that is there already. */
const DUPLICATE_COLUMN = 1060;

/**
 * One step of a migration. MySQL has no ADD COLUMN IF NOT EXISTS, so a step that adds a column the table has already
 * (a migration cut short after that step, and run again) is taken as done.
 */
async function runStep(tx: MysqlTx, step: string): Promise<void> {
  try {
    await tx.run(step);
  } catch (err) {
    const errno = (err as { errno?: unknown }).errno;
    if (!(/\bADD COLUMN\b/i.test(step) && errno === DUPLICATE_COLUMN)) throw err;
  }
}
