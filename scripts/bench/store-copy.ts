// The real `qpswatch store copy` from a bench's SQLite file into a database of a scratch MariaDB (a ResultsServer of
// test/helpers/results-db.ts), timed, with its table of counts read back: bench:store-copy and bench:fleet-metrics
// --mysql run it the same way.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultEnv, run, type RunResult } from '../../src/exec/index.js';
import { projectRoot } from '../../src/paths.js';
import { STORE_PASSWORD, type ResultsServer } from '../../test/helpers/results-db.js';

export interface CopyRun {
  seconds: number;
  result: RunResult;
  /** The command as a person runs it from the project's folder: node bin/qpswatch.js store copy ... */
  command: string;
  /** Each table's row of the printed counts (and the `all tables` row). */
  counts: TableCount[];
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/**
 * The environment of a qpswatch command on the store user's database of `server`: the settings of the config's
 * store (QPSWATCH_STORE_*) and the password, which goes by the environment only, never on argv.
 */
export function mysqlStoreEnv(server: ResultsServer, database: string): Record<string, string> {
  return {
    ...defaultEnv(),
    QPSWATCH_STORE_BACKEND: 'mysql',
    QPSWATCH_STORE_SOCKET: server.scratch.socket,
    QPSWATCH_STORE_USER: server.storeOptions(database).user,
    QPSWATCH_STORE_DATABASE: database,
    QPSWATCH_STORE_PASSWORD: STORE_PASSWORD,
    QPSWATCH_LOG_FORMAT: 'json',
  };
}

/** What mysqlStoreEnv sets, for a report: the password by name only. */
export function mysqlStoreEnvText(server: ResultsServer, database: string): string {
  return (
    `QPSWATCH_STORE_BACKEND=mysql QPSWATCH_STORE_SOCKET=${server.scratch.socket} ` +
    `QPSWATCH_STORE_DATABASE=${database} QPSWATCH_STORE_USER, QPSWATCH_STORE_PASSWORD`
  );
}

/** Runs `node bin/qpswatch.js store copy --from sqlite:PATH` into `database`; throws unless it exits 0. */
export async function copyIntoMysql(
  server: ResultsServer,
  database: string,
  sqlitePath: string,
  batchRows?: string,
): Promise<CopyRun> {
  const argv = [
    process.execPath,
    join(projectRoot, 'bin', 'qpswatch.js'),
    'store',
    'copy',
    '--from',
    `sqlite:${sqlitePath}`,
    ...(batchRows !== undefined ? ['--batch-rows', batchRows] : []),
  ];
  const begin = performance.now();
  const result = await run({
    argv,
    env: mysqlStoreEnv(server, database),
    cwd: projectRoot,
    timeoutMs: 1_800_000,
    allowFailure: true,
  });
  const seconds = (performance.now() - begin) / 1000;
  if (result.exitCode !== 0)
    throw new Error(
      `store copy exited ${result.exitCode ?? result.signal}: ${result.stderr.trim().split('\n').at(-1)}`,
    );
  const command = ['node', 'bin/qpswatch.js', ...argv.slice(2)].join(' ');
  return { seconds, result, command, counts: tableCounts(result.stdout) };
}

/** The rows of store copy's printed table of counts; throws when there is none (the output changed). */
export function tableCounts(stdout: string): TableCount[] {
  const counts = stdout
    .split('\n')
    .map((l) => /^(\S[\w ]*?)\s+(\d+)\s+(\d+)\s+\d+\s+\d+$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ table: m[1]!, source: Number(m[2]), target: Number(m[3]) }));
  if (counts.length === 0) throw new Error(`store copy printed no table of counts: ${stdout.trim().split('\n')[0]}`);
  return counts;
}

/** The tables whose source and target counts differ. */
export function unequalTables(counts: readonly TableCount[]): string[] {
  return counts.filter((c) => c.source !== c.target).map((c) => `${c.table} ${c.source} -> ${c.target}`);
}
