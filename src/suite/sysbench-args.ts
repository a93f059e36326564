import { join } from 'node:path';
import { PROJECT_SCRIPT_DIR } from './script-lookup.js';
import type { ScriptArgs, Suite, SuiteLoad, SuiteTest, SuiteWarmup } from './suite.js';

/** The script that lists another script's statements (statementsArgv). */
const STATEMENT_LISTER = join(PROJECT_SCRIPT_DIR, 'lib', 'list-statements.lua');

/** How sysbench reaches the server: its unix socket only, never TCP. */
export interface SysbenchConnection {
  socket: string;
  user: string;
  /**
   * A sysbench --config-file holding mysql-password (writeSysbenchPassword): the password never goes on the command
   * line, which every local user can read in /proc.
   */
  optionsFile?: string;
}

// Options qpswatch sets itself for every run; a suite's args may not change them. Other mysql-* options
// (mysql-storage-engine, mysql-ignore-errors) and db-ps-mode stay open to suites.
const OWNED = new Set([
  'threads',
  'time',
  'events',
  'tables',
  'table-size',
  'rand-type',
  'report-interval',
  'percentile',
  'histogram',
  'db-driver',
  'mysql-host',
  'mysql-port',
  'mysql-socket',
  'mysql-user',
  'mysql-password',
  'mysql-db',
  'config-file',
]);
const OWNED_PREFIXES = ['pgsql-'];

/** sysbench takes range_size and range-size alike; the dashed form is the one compared and passed on. */
export function optionName(key: string): string {
  return key.replace(/_/g, '-');
}

/** True for options the runner sets itself (connection, threads, time, table shape, random distribution). */
export function isOwnedOption(key: string): boolean {
  const name = optionName(key);
  return OWNED.has(name) || OWNED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * sysbench's random seed for prepare: fixed, so every load of a suite holds the same rows. With sysbench's default
 * (0: the time) each load differed, and the instructions lane counted its two sides, and a release against the base's
 * stored figures, 0.2 to 0.5% apart on update-index for the rows alone.
 */
export const LOAD_SEED = 1;

/**
 * Arguments for `sysbench ... prepare` (without the program: see runSysbench).
 * Uniform random values in prepare too, so the data set does not depend on sysbench's default distribution, from a
 * fixed seed, so it does not depend on the time either.
 */
export function prepareArgv(suite: Pick<Suite, 'load'>, conn: SysbenchConnection): string[] {
  const load = suite.load;
  // prepare creates tables in parallel, one thread per table at most.
  return [
    ...connectionArgs(conn, load),
    ...loadArgs(load),
    `--threads=${Math.min(load.tables, 8)}`,
    `--rand-seed=${LOAD_SEED}`,
    ...scriptArgs(load.args),
    load.scriptPath,
    'prepare',
  ];
}

/** Arguments for one measured `sysbench ... run` of `test` with `threads` clients. */
export function runArgv(test: SuiteTest, threads: number, conn: SysbenchConnection, seconds = test.seconds): string[] {
  return measuredArgs(test, threads, conn, seconds);
}

/**
 * Arguments for listing the statements of `test`'s script (lua/lib/list-statements.lua, its `statements` command):
 * the test's connection, load and script options, so the script prepares what its runs prepare; the script itself is
 * named in the environment (listStatements).
 */
export function statementsArgv(test: Pick<SuiteTest, 'args' | 'load'>, conn: SysbenchConnection): string[] {
  return [
    ...connectionArgs(conn, test.load),
    ...loadArgs(test.load),
    '--threads=1',
    ...scriptArgs(test.args),
    STATEMENT_LISTER,
    'statements',
  ];
}

/** Arguments for the warm-up run, a plain `run` whose result is not kept. */
export function warmupArgv(warmup: SuiteWarmup, conn: SysbenchConnection, seconds = warmup.seconds): string[] {
  return measuredArgs(warmup, warmup.threads, conn, seconds);
}

/**
 * Arguments for a counted run of the instructions lane: a fixed number of events from a fixed random seed, with no
 * time limit, so every run asks the server exactly the same queries. The seed comes after the suite's args: a
 * script's own rand-seed does not change what the lane counts.
 */
export function countedArgv(
  test: Pick<SuiteTest, 'scriptPath' | 'args' | 'load'>,
  threads: number,
  conn: SysbenchConnection,
  count: { events: number; seed: number },
): string[] {
  requireCount('threads', threads);
  requireCount('events', count.events);
  requireCount('seed', count.seed);
  return [
    ...connectionArgs(conn, test.load),
    ...loadArgs(test.load),
    `--threads=${threads}`,
    '--time=0',
    `--events=${count.events}`,
    '--report-interval=0',
    '--percentile=95',
    '--histogram=off',
    ...scriptArgs(test.args),
    `--rand-seed=${count.seed}`,
    test.scriptPath,
    'run',
  ];
}

interface Runnable {
  scriptPath: string;
  args: ScriptArgs;
  load: SuiteLoad;
}

function measuredArgs(step: Runnable, threads: number, conn: SysbenchConnection, seconds: number): string[] {
  requireCount('threads', threads);
  requireCount('seconds', seconds);
  return [
    ...connectionArgs(conn, step.load),
    ...loadArgs(step.load),
    `--threads=${threads}`,
    `--time=${seconds}`,
    '--report-interval=0',
    '--percentile=95',
    '--histogram=off',
    ...scriptArgs(step.args),
    step.scriptPath,
    'run',
  ];
}

/** Each data set of a suite lives in its own database: a run goes to its load's. */
function connectionArgs(conn: SysbenchConnection, load: SuiteLoad): string[] {
  const file = conn.optionsFile !== undefined ? [`--config-file=${conn.optionsFile}`] : [];
  return [
    ...file,
    '--db-driver=mysql',
    `--mysql-socket=${conn.socket}`,
    `--mysql-user=${conn.user}`,
    `--mysql-db=${load.database}`,
  ];
}

function loadArgs(load: SuiteLoad): string[] {
  return [`--tables=${load.tables}`, `--table-size=${load.tableSize}`, '--rand-type=uniform'];
}

function scriptArgs(args: ScriptArgs): string[] {
  return Object.entries(args).map(
    ([key, value]) => `--${optionName(key)}=${typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value)}`,
  );
}

function requireCount(what: string, value: number): void {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`sysbench ${what} must be a whole number >= 1, got ${value}`);
}
