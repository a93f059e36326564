import type { Logger } from '../log/index.js';
import type { SampleRole } from '../model/index.js';
import type { RunningServer } from '../server/index.js';
import type { SessionSideStore, StatementPlan } from '../store/index.js';
import { listStatements, statementsArgv, type Suite, type SuiteTest, type SysbenchConnection } from '../suite/index.js';
import type { TargetInstance } from './target-instance.js';

/** Statements a plan is asked of: the rest (BEGIN, COMMIT, DDL a script runs at start) have none. */
const EXPLAINABLE = /^\s*(SELECT|UPDATE|DELETE|INSERT|REPLACE|WITH)\b/i;

/** Listing one script's statements starts sysbench once: a few tenths of a second. */
const LIST_TIMEOUT_MS = 60_000;

interface PlanContext {
  store: Pick<SessionSideStore, 'recordStatementPlans'>;
  sessionId: number;
  log: Logger;
  signal: AbortSignal;
}

/**
 * Each side's plans, kept once per session after its first start, before anything is measured: for every test, the
 * statements its script prepares (listStatements), each explained (EXPLAIN FORMAT=JSON) on the test's database with
 * its placeholders filled in (fillPlaceholders). Both sides get the same statements with the same values, so a plan
 * that differs is the server's choice. A script whose statements cannot be listed is logged and left out: the
 * session's runs of it will say what is wrong.
 */
export async function keepStatementPlans(
  instance: TargetInstance,
  role: SampleRole,
  suite: Pick<Suite, 'tests'>,
  server: Pick<RunningServer, 'connect'>,
  conn: SysbenchConnection,
  ctx: PlanContext,
): Promise<void> {
  if (instance.plansKept) return;
  const plans: StatementPlan[] = [];
  for (const test of distinctScripts(suite.tests)) {
    ctx.signal.throwIfAborted();
    const statements = await scriptStatements(test, conn, instance.sysbenchLog, ctx);
    const explainable = statements.filter((s) => EXPLAINABLE.test(s));
    if (explainable.length === 0) continue;
    const db = await server.connect(test.load.database);
    try {
      for (const statement of explainable)
        plans.push({ test: test.name, statement, ...(await explain(db, statement, test)) });
    } finally {
      await db.end();
    }
  }
  await ctx.store.recordStatementPlans(ctx.sessionId, role, plans);
  instance.plansKept = true;
}

/** Tests that run the same script with the same options on the same data prepare the same statements: one of each. */
function distinctScripts(tests: readonly SuiteTest[]): SuiteTest[] {
  const seen = new Set<string>();
  return tests.filter((t) => {
    const key = JSON.stringify([t.scriptPath, t.args, t.load.database]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function scriptStatements(
  test: SuiteTest,
  conn: SysbenchConnection,
  logFile: string,
  ctx: PlanContext,
): Promise<string[]> {
  try {
    return await listStatements(test.scriptPath, statementsArgv(test, conn), {
      logFile,
      timeoutMs: LIST_TIMEOUT_MS,
      signal: ctx.signal,
      log: ctx.log,
    });
  } catch (err) {
    ctx.signal.throwIfAborted();
    ctx.log.warn(
      { test: test.name, err: err instanceof Error ? err.message : String(err) },
      `the statements of ${test.name} could not be listed; its plans are left out`,
    );
    return [];
  }
}

async function explain(
  db: { query(sql: string): Promise<[unknown, unknown]> },
  statement: string,
  test: SuiteTest,
): Promise<{ plan: unknown } | { error: string }> {
  try {
    const [rows] = await db.query(`EXPLAIN FORMAT=JSON ${fillPlaceholders(statement, test.load.tableSize)}`);
    const first = Array.isArray(rows) ? (rows[0] as Record<string, unknown> | undefined) : undefined;
    const text = first === undefined ? undefined : Object.values(first)[0];
    if (typeof text !== 'string') return { error: 'EXPLAIN FORMAT=JSON gave no plan' };
    return { plan: JSON.parse(text) as unknown };
  } catch (err) {
    // The server's own words: a statement it cannot explain (an INSERT on some versions) is compared as such.
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The statement with each ? outside a quoted string replaced by a number from the middle of the table, one more for
 * each placeholder (a range BETWEEN n AND n+1, an IN-list of distinct ids), so every side explains the same query.
 */
export function fillPlaceholders(statement: string, tableSize: number): string {
  let next = Math.max(1, Math.floor(tableSize / 2));
  let quote: string | undefined;
  let out = '';
  for (const ch of statement) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? String(next++) : ch;
  }
  return out;
}
