import { z } from 'zod';
import type { SampleRole } from '../../model/index.js';
import type { ServerVariables, SessionSideStore, StatementPlan } from '../session-side-types.js';
import { anyText, checkId, line, parseRecord, text } from '../validate.js';
import { SqlRole } from '../sql.js';
import { requireRunning } from './session-states.js';

const role = z.enum(['baseline', 'candidate'], { error: 'expected "baseline" or "candidate"' });
const variablesSchema = z.object({ role, variables: z.record(line(), anyText()) });
const plansSchema = z.object({
  role,
  plans: z.array(
    z.union([
      z.object({ test: text(), statement: text(), plan: z.unknown() }),
      z.object({ test: text(), statement: text(), error: text() }),
    ]),
  ),
});

type Column = 'variables' | 'plans';

/**
 * The session_sides table: what each side of a session ran with, one row per side, each kind of fact a JSON column
 * of its own (absent until kept).
 */
export class SessionSides extends SqlRole implements SessionSideStore {
  async recordServerVariables(sessionId: number, side: SampleRole, variables: ServerVariables): Promise<void> {
    const valid = parseRecord(variablesSchema, 'session', { role: side, variables });
    await this.#keep(sessionId, valid.role, 'variables', valid.variables);
  }

  async serverVariables(sessionId: number): Promise<Partial<Record<SampleRole, ServerVariables>>> {
    return this.#read<ServerVariables>(sessionId, 'variables');
  }

  async recordStatementPlans(sessionId: number, side: SampleRole, plans: readonly StatementPlan[]): Promise<void> {
    const valid = parseRecord(plansSchema, 'session', { role: side, plans });
    await this.#keep(sessionId, valid.role, 'plans', valid.plans);
  }

  async statementPlans(sessionId: number): Promise<Partial<Record<SampleRole, StatementPlan[]>>> {
    return this.#read<StatementPlan[]>(sessionId, 'plans');
  }

  async #keep(sessionId: number, side: SampleRole, column: Column, value: unknown): Promise<void> {
    checkId('session', 'sessionId', sessionId);
    await this.write(`store a side's ${column}`, async (tx) => {
      await requireRunning(tx, sessionId, `store a side's ${column}`);
      await this.dialect.upsert(tx, {
        table: 'session_sides',
        row: { session_id: sessionId, role: side, [column]: JSON.stringify(value) },
        key: ['session_id', 'role'],
        update: [column],
      });
    });
  }

  async #read<T>(sessionId: number, column: Column): Promise<Partial<Record<SampleRole, T>>> {
    checkId('session', 'sessionId', sessionId);
    return this.read(`read the sides' ${column}`, async (tx) => {
      const rows = await tx.rows<{ role: SampleRole; value: string | null }>(
        `SELECT role, ${column} AS value FROM session_sides WHERE session_id = ?`,
        [sessionId],
      );
      return Object.fromEntries(rows.flatMap((r) => (r.value === null ? [] : [[r.role, JSON.parse(r.value) as T]])));
    });
  }
}
