import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';
import { readGlobalStatus, type StatusConnection } from '../sampling/index.js';
import type { RunningServer } from '../server/index.js';

/**
 * What reading the tables in found: pages read from disk by the first pass, and by the second (0 when the pool holds
 * them).
 */
export interface CachedTables {
  indexes: number;
  firstPassPages: number;
  secondPassPages: number;
  /** Innodb_buffer_pool_pages_data / pages_total after the read-in. */
  poolFill: number;
}

/** A second pass may read a few pages (the undo log, a page the purge touched); more than this share means eviction. */
const SECOND_PASS_SHARE = 0.01;
const SECOND_PASS_SLACK_PAGES = 16;

/** The cached setting's pool did not keep the tables: the measured runs would read from disk. */
export class PoolTooSmallError extends InputError {
  constructor(target: string, cached: CachedTables) {
    super(
      `memory setting cached: the buffer pool of ${target} does not hold its ` +
        `tables: a second pass over them read ${cached.secondPassPages} of ` +
        (`${cached.firstPassPages} pages from disk again (pool ` +
          `${(cached.poolFill * 100).toFixed(0)}% full); give its server profile ` +
          `a larger innodb_buffer_pool_size, or use a suite with fewer rows`),
    );
  }
}

/**
 * The cached setting's start: every index of every table of the database is scanned once, so its pages are in the
 * buffer pool before any test, then scanned again: the pool holds them when the second pass reads (next to) nothing
 * from disk. Innodb_pages_read counts read-ahead too, which a full scan triggers.
 */
export async function readTablesIntoPool(
  server: Pick<RunningServer, 'query'>,
  status: StatusConnection,
  database: string,
  target: string,
  log: Logger,
  signal?: AbortSignal,
): Promise<CachedTables> {
  const scans = await indexScans(server, database);
  // A large table takes minutes per pass: a stop asked for in between is heeded at the next index.
  const scanAll = async (): Promise<void> => {
    for (const sql of scans) {
      signal?.throwIfAborted();
      await server.query(sql);
    }
  };
  const before = await pagesRead(status);
  await scanAll();
  const between = await pagesRead(status);
  await scanAll();
  const after = await readGlobalStatus(status);
  const cached: CachedTables = {
    indexes: scans.length,
    firstPassPages: between - before,
    secondPassPages: counter(after, 'Innodb_pages_read') - between,
    poolFill:
      counter(after, 'Innodb_buffer_pool_pages_data') / Math.max(1, counter(after, 'Innodb_buffer_pool_pages_total')),
  };
  log.info(
    { target, ...cached },
    `cached: ${target}'s ${scans.length} index(es) read into the buffer ` +
      `pool (${cached.firstPassPages} pages; a second pass read ` +
      `${cached.secondPassPages})`,
  );
  if (cached.secondPassPages > Math.max(SECOND_PASS_SLACK_PAGES, cached.firstPassPages * SECOND_PASS_SHARE))
    throw new PoolTooSmallError(target, cached);
  return cached;
}

/** One full scan per index of every InnoDB table of the database; the names are the server's, quoted as identifiers. */
async function indexScans(server: Pick<RunningServer, 'query'>, database: string): Promise<string[]> {
  const rows = await server.query(
    `SELECT DISTINCT s.TABLE_NAME AS t, s.INDEX_NAME AS i FROM information_schema.STATISTICS s
       JOIN information_schema.TABLES x ON x.TABLE_SCHEMA = s.TABLE_SCHEMA AND x.TABLE_NAME = s.TABLE_NAME
      WHERE s.TABLE_SCHEMA = ? AND x.ENGINE = 'InnoDB' ORDER BY s.TABLE_NAME, s.INDEX_NAME`,
    [database],
  );
  return rows.map(
    (r) =>
      `SELECT COUNT(*) FROM ` +
      `${identifier(database)}.${identifier(String(r['t']))} FORCE INDEX ` +
      `(${identifier(String(r['i']))})`,
  );
}

function identifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

async function pagesRead(status: StatusConnection): Promise<number> {
  return counter(await readGlobalStatus(status), 'Innodb_pages_read');
}

function counter(status: Readonly<Record<string, string>>, name: string): number {
  const value = Number(status[name]);
  if (!Number.isFinite(value))
    throw new Error(`SHOW GLOBAL STATUS has no number for ${name} (${JSON.stringify(status[name])})`);
  return value;
}
