import { z } from 'zod';
import { StatusParseError } from './errors.js';

/** What readGlobalStatus needs of a connection; a mysql2/promise Connection or Pool satisfies it. */
export interface StatusConnection {
  query(sql: string): Promise<[unknown, unknown]>;
}

/** SHOW GLOBAL STATUS as name -> text value (text, because many values are ON/OFF or empty). */
export type GlobalStatus = Readonly<Record<string, string>>;

export const GlobalStatusRowsSchema = z.array(
  z.object({
    Variable_name: z.string().min(1),
    // mysql2 gives strings; numbers and null are taken too so another driver cannot produce NaN downstream.
    Value: z.union([z.string(), z.number(), z.null()]),
  }),
);
export type GlobalStatusRows = z.infer<typeof GlobalStatusRowsSchema>;

export async function readGlobalStatus(conn: StatusConnection): Promise<GlobalStatus> {
  const [rows] = await conn.query('SHOW GLOBAL STATUS');
  return parseGlobalStatus(rows);
}

/**
 * SHOW GLOBAL VARIABLES as name -> text value: the settings the server really runs with (its my.cnf, its command line
 * and its own defaults together). The rows have the shape of the status rows.
 */
export async function readGlobalVariables(conn: StatusConnection): Promise<Record<string, string>> {
  const [rows] = await conn.query('SHOW GLOBAL VARIABLES');
  return { ...parseGlobalStatus(rows) };
}

export function parseGlobalStatus(rows: unknown): GlobalStatus {
  const parsed = GlobalStatusRowsSchema.safeParse(rows);
  if (!parsed.success) {
    const why = z.prettifyError(parsed.error);
    throw new StatusParseError('rows', summarize(rows), `not a list of {Variable_name, Value}: ${why}`);
  }
  const status: Record<string, string> = {};
  for (const row of parsed.data) status[row.Variable_name] = row.Value === null ? 'NULL' : String(row.Value);
  return status;
}

function summarize(rows: unknown): unknown {
  return Array.isArray(rows) ? rows.slice(0, 2) : rows;
}
