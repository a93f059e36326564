import type { SampleRole } from '../model/index.js';

/**
 * One side's server variables, name to value, as SHOW GLOBAL VARIABLES gave them after the side's first start in a
 * session. Paths of the session's own folders are kept as placeholders (the session room writes them), so two sides
 * that differ only in where they ran compare equal.
 */
export type ServerVariables = Record<string, string>;

/**
 * The plan of one statement a test's script prepares, as EXPLAIN FORMAT=JSON gave it on one side (its estimates left
 * out by the session room), or the server's error when it cannot explain the statement.
 */
export type StatementPlan =
  { test: string; statement: string; plan: unknown } | { test: string; statement: string; error: string };

/** What each side of a session ran with, kept at its first start: the server's variables, its tests' plans. */
export interface SessionSideStore {
  /** Keeps one side's variables while its session runs; a second call for the side replaces them. */
  recordServerVariables(sessionId: number, role: SampleRole, variables: ServerVariables): Promise<void>;
  /** The sides' variables; a side is absent when none were kept (a session from before they were, or a failed one). */
  serverVariables(sessionId: number): Promise<Partial<Record<SampleRole, ServerVariables>>>;
  /** Keeps one side's plans while its session runs; a second call for the side replaces them. */
  recordStatementPlans(sessionId: number, role: SampleRole, plans: readonly StatementPlan[]): Promise<void>;
  /** The sides' plans; a side is absent when none were kept. */
  statementPlans(sessionId: number): Promise<Partial<Record<SampleRole, StatementPlan[]>>>;
}
