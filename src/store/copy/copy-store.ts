import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../log/index.js';
import { SchemaTooNewError } from '../errors.js';
import type { MysqlConnection } from '../mysql/connection.js';
import { checkSchemaVersion, migrate } from '../mysql/migrate.js';
import { connectMysqlDatabase, mysqlOpenError, mysqlStoreLabel, type MysqlStoreOptions } from '../mysql/open.js';
import { mysqlLatestVersion } from '../mysql/schema.js';
import { latestVersion as sqliteLatestVersion } from '../sqlite/migrations.js';
import { StoreCopyCountError, StoreCopyRefusedError } from './errors.js';
import { countRows, readTargetSchema } from './mysql-target.js';
import { planCopy } from './plan.js';
import { SqliteSource } from './sqlite-source.js';
import { checkTable, copyTable, type TableCheck } from './table-copy.js';

export interface StoreCopyParams {
  /** The SQLite store file (read only: the copy never writes it). */
  from: string;
  /** The MySQL or MariaDB store: made and migrated when its database is empty. */
  to: MysqlStoreOptions;
  log: Logger;
  /** Rows per multi-row INSERT, each in its own write transaction; default 2000. */
  batchRows?: number;
  /** Stops the copy between two batches; what was committed stays, and a second run goes on from there. */
  signal?: AbortSignal;
}

export interface TableCount {
  table: string;
  /** Rows of the source. */
  source: number;
  /** Rows of the target before and after the copy. */
  targetBefore: number;
  target: number;
  copied: number;
  /** Source rows the target held already, equal in every column. */
  present: number;
}

export interface StoreCopyReport {
  from: string;
  /** The target as messages name it: server, user and database, never the password. */
  to: string;
  schemaVersion: number;
  /** Whether the copy made the target's tables (its database was empty). */
  created: boolean;
  tables: TableCount[];
  copied: number;
  seconds: number;
}

export const DEFAULT_BATCH_ROWS = 2000;

/**
 * Copies every row of every table of an SQLite store into a MySQL or MariaDB store, ids kept, in foreign-key order.
 * First every table is checked (rows the target holds already must equal the source's, and rows it lacks must not
 * clash with its unique keys), then the missing rows are inserted, a batch a transaction; then the counts are checked.
 * A refusal (StoreCopyRefusedError, the stores' schema versions apart) comes before any write. Running it again
 * finds every row there and writes nothing.
 */
export async function copyStore(params: StoreCopyParams): Promise<StoreCopyReport> {
  const began = performance.now();
  const batchRows = params.batchRows ?? DEFAULT_BATCH_ROWS;
  const path = resolve(params.from);
  const source = SqliteSource.open(path);
  try {
    const version = sourceVersion(source);
    const to = { ...params.to, readonly: false };
    const label = mysqlStoreLabel(to);
    const conn = await connectMysqlDatabase(to);
    try {
      const created = await prepareTarget(conn, to, version);
      const schema = await conn.read('read the target schema', readTargetSchema);
      const plans = planCopy(
        { tables: source.tables(), count: (t) => source.count(t), countNonNull: (t, c) => source.countNonNull(t, c) },
        schema,
      );
      const checks: TableCheck[] = [];
      for (const plan of plans) checks.push(await checkTable(conn, source, plan, batchRows));
      const tables: TableCount[] = [];
      for (const check of checks) tables.push(await copyOne(conn, source, check, batchRows, params));
      const copied = tables.reduce((n, t) => n + t.copied, 0);
      return { from: path, to: label, schemaVersion: version, created, tables, copied, seconds: elapsed(began) };
    } finally {
      await conn.close();
    }
  } finally {
    source.close();
  }
}

async function copyOne(
  conn: MysqlConnection,
  source: SqliteSource,
  check: TableCheck,
  batchRows: number,
  params: StoreCopyParams,
): Promise<TableCount> {
  const began = performance.now();
  const { plan } = check;
  const copied = check.missing === 0 ? 0 : await copyTable(conn, source, check, batchRows, params.signal);
  const target = await countRows(conn, plan.name);
  const counts = { table: plan.name, source: check.source, targetBefore: check.targetBefore, target, copied };
  if (target !== check.targetBefore + copied || check.present + copied !== check.source)
    throw new StoreCopyCountError(plan.name, check.targetBefore + copied, target);
  params.log.info(
    { ...counts, present: check.present, seconds: Number(elapsed(began).toFixed(2)) },
    copied > 0 ? 'table copied' : 'table already in the target',
  );
  return { ...counts, present: check.present };
}

/** The source's schema version: this qpswatch's, so the target's tables (made by this qpswatch) fit it. */
function sourceVersion(source: SqliteSource): number {
  const version = source.version();
  const where = `the SQLite store ${source.path}`;
  if (version === 0)
    throw new StoreCopyRefusedError(undefined, `${where} has no qpswatch schema version: it is not a qpswatch store`);
  if (version > sqliteLatestVersion) throw new SchemaTooNewError(source.path, version, sqliteLatestVersion);
  if (version < sqliteLatestVersion)
    throw new StoreCopyRefusedError(
      undefined,
      `${where} has schema version ${version}, older than this qpswatch's ${sqliteLatestVersion}: migrate it ` +
        'first by running a qpswatch command on it as its owner (e.g. qpswatch status with store_backend: sqlite)',
    );
  if (mysqlLatestVersion !== version)
    throw new StoreCopyRefusedError(
      undefined,
      `this qpswatch makes MySQL stores of schema version ${mysqlLatestVersion}, not the source's ${version}`,
    );
  return version;
}

/** An empty database gets the tables; one at the source's version is used as it is; any other is refused. */
async function prepareTarget(conn: MysqlConnection, to: MysqlStoreOptions, version: number): Promise<boolean> {
  const label = mysqlStoreLabel(to);
  try {
    const found = await conn.session('check the target', (tx) => checkSchemaVersion(tx, label, Number.MAX_VALUE));
    if (found !== 0 && found !== version)
      throw new StoreCopyRefusedError(
        undefined,
        `the target ${label} has schema version ${found}, the source ${version}: ` +
          (found > version
            ? 'copy with the newer qpswatch that made the target'
            : 'migrate the target first by opening it with this qpswatch (a command that writes, or the daemon)'),
      );
    // Adds the per-op figure columns too, should the target lack any; nothing when it has them.
    await migrate(conn, label);
    return found === 0;
  } catch (error) {
    if (error instanceof StoreCopyRefusedError) throw error;
    throw mysqlOpenError(error, to);
  }
}

const elapsed = (since: number): number => (performance.now() - since) / 1000;
