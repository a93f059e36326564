import { SessionNotFoundError, SessionStateError } from '../errors.js';
import type { SessionState } from '../session-types.js';
import type { SqlTx } from '../sql.js';

/** A session's state, read inside the caller's transaction; SessionNotFoundError when there is no such session. */
export async function sessionState(tx: SqlTx, sessionId: number): Promise<SessionState> {
  const row = await tx.row<{ state: SessionState }>('SELECT state FROM sessions WHERE id = ?', [sessionId]);
  if (!row) throw new SessionNotFoundError(sessionId);
  return row.state;
}

export async function requireRunning(tx: SqlTx, sessionId: number, action: string): Promise<void> {
  const state = await sessionState(tx, sessionId);
  if (state !== 'running') throw new SessionStateError(sessionId, state, action);
}
