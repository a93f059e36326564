import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import type { SampleRole } from '../model/index.js';
import { STOCK_SCRIPT_DIRS, type Suite, type SuiteLoad, type SuiteTest } from '../suite/index.js';
import type { RoundContext } from './round.js';

/**
 * The paired design runs every test on both servers, each on one datadir for a block of sweeps, so every test must
 * leave the loaded tables as it found them: a test that grows or shrinks them does more of it on the faster server,
 * and from then on the two servers' tests read different data (docs/verdicts.md, "Why pairs"). sysbench's own scripts
 * that do so are known by name and refused before anything starts; a suite's own script is caught by counting the
 * rows after its first pair.
 */

/** sysbench's stock scripts that change the loaded tables' row counts, what they do, and qpswatch's own instead. */
const STOCK_DATA_CHANGERS: Readonly<Record<string, { does: string; instead: string }>> = {
  oltp_insert: { does: 'grows the loaded tables', instead: 'insert (appends to a table of its own)' },
  oltp_delete: { does: 'shrinks the loaded tables', instead: 'delete-insert (puts back each row it deletes)' },
  bulk_insert: { does: 'grows the loaded tables', instead: 'insert (appends to a table of its own)' },
};

/** A test whose runs change the data the session's tests read: the paired design cannot judge it. */
export class DataChangingTestError extends InputError {
  constructor(
    readonly test: string,
    what: string,
    fix: string,
  ) {
    super(
      `test ${test} ${what}: in a paired session each server runs every test on one datadir, so the faster server ` +
        `would change the data more and the two would read different tables; ${fix}`,
    );
    this.name = new.target.name;
  }
}

const FIX_WHOLE_RUNS = 'or run the suite in the whole-run design (design: runs, or --rounds N)';

/**
 * The sha256 of the stock data-changing scripts of sysbench 1.0.20 as Debian 12 packages it, so a copy is known
 * wherever it was put and whatever it was renamed to; the stock folders of this host are hashed as well (another
 * sysbench's scripts).
 */
const KNOWN_STOCK_HASHES: Readonly<Record<string, string>> = {
  '46d250ef3be841b1a349b23e6390d6f7adfb2435a239802ef4ceed9873d1cd68': 'oltp_insert',
  '11dc20862684615384145641e0114c1ea76b80d7c9ba8c755e0fd9ad0fe62711': 'oltp_delete',
  '90ef17c63b8f959fa85f7c459b106b26d44d7f1686bfff467837a4c41d0a84de': 'bulk_insert',
};

function sha256Of(path: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

let stockHashes: Map<string, string> | undefined;

/** The known hashes and those of the stock data changers in this host's sysbench folders, by hash: the script. */
function stockDataChangerHashes(): Map<string, string> {
  if (stockHashes !== undefined) return stockHashes;
  stockHashes = new Map(Object.entries(KNOWN_STOCK_HASHES));
  for (const dir of STOCK_SCRIPT_DIRS)
    for (const script of Object.keys(STOCK_DATA_CHANGERS)) {
      const path = join(dir, `${script}.lua`);
      const hash = existsSync(path) ? sha256Of(path) : undefined;
      if (hash !== undefined) stockHashes.set(hash, script);
    }
  return stockHashes;
}

/**
 * The stock data-changing script a test runs, and whether from sysbench's own folder: known by its name wherever it
 * lies (oltp_insert.lua copied into a suite's folder is still oltp_insert), else by its content's sha256 (a renamed
 * copy).
 */
function stockDataChanger(test: Pick<SuiteTest, 'scriptPath'>): { script: string; copy: boolean } | undefined {
  // A test made in code with no script (a unit test's fake) runs none of sysbench's.
  if (typeof test.scriptPath !== 'string') return undefined;
  const copy = !STOCK_SCRIPT_DIRS.includes(dirname(test.scriptPath));
  const named = basename(test.scriptPath).replace(/\.lua$/, '');
  if (Object.hasOwn(STOCK_DATA_CHANGERS, named)) return { script: named, copy };
  const hash = sha256Of(test.scriptPath);
  const byContent = hash === undefined ? undefined : stockDataChangerHashes().get(hash);
  return byContent === undefined ? undefined : { script: byContent, copy };
}

/** The line that refuses a paired session of a test running a stock script that changes row counts; or undefined. */
export function stockDataChangerRefusal(test: Pick<SuiteTest, 'name' | 'scriptPath'>): string | undefined {
  const found = stockDataChanger(test);
  if (found === undefined) return undefined;
  const known = STOCK_DATA_CHANGERS[found.script]!;
  const runs = found.copy
    ? `runs ${test.scriptPath}, a copy of sysbench's stock ${found.script}`
    : `runs sysbench's stock ${found.script}`;
  return new DataChangingTestError(
    test.name,
    `${runs}, which ${known.does}`,
    `use qpswatch's own script ${known.instead}, ${FIX_WHOLE_RUNS}`,
  ).message;
}

/** The first test of a suite that runs a stock data-changing script, refused in one line; undefined when none does. */
export function suiteDataChangerRefusal(suite: Pick<Suite, 'tests'>): string | undefined {
  return suite.tests.map(stockDataChangerRefusal).find((line) => line !== undefined);
}

/** The rows of each loaded table of a data set on one side's server, table by table (sbtest1, sbtest2, ...). */
export type RowCounter = (role: SampleRole, load: SuiteLoad) => Promise<number[]>;

/**
 * After a test's first pair: every loaded table of its data set must still hold the rows it was loaded with, on both
 * servers; otherwise the session stops with the line that names the test and the fix.
 */
export async function checkRowCounts(
  test: SuiteTest,
  parts: { rowCounts: RowCounter },
  ctx: Pick<RoundContext, 'signal'>,
): Promise<void> {
  for (const role of ['baseline', 'candidate'] as const) {
    ctx.signal.throwIfAborted();
    const counts = await parts.rowCounts(role, test.load);
    const changed = counts.findIndex((rows) => rows !== test.load.tableSize);
    if (changed < 0) continue;
    throw new DataChangingTestError(
      test.name,
      `changed the rows of the loaded table ${test.load.database}.sbtest${changed + 1} from ` +
        `${test.load.tableSize} to ${counts[changed]} on the ${role} server in its first pair`,
      `make its script leave the loaded tables as it found them (append to a table of its own, or put back what it ` +
        `deletes, as qpswatch's insert and delete-insert do), ${FIX_WHOLE_RUNS}`,
    );
  }
}
