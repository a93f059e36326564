import { SessionNotFoundError, SessionStateError } from '../errors.js';
import type { SessionState } from '../session-types.js';
import type { SqliteConnection } from './connection.js';

/** A session's state, read inside the caller's transaction: what sessions, samples and quiet-host rows depend on. */
export class SessionStates {
  readonly #state;

  constructor(conn: SqliteConnection) {
    this.#state = conn.prepare('SELECT state FROM sessions WHERE id = ?');
  }

  /** The session's state; SessionNotFoundError when there is no such session. */
  of(sessionId: number): SessionState {
    const row = this.#state.get(sessionId) as { state: SessionState } | undefined;
    if (!row) throw new SessionNotFoundError(sessionId);
    return row.state;
  }

  requireRunning(sessionId: number, action: string): void {
    const state = this.of(sessionId);
    if (state !== 'running') throw new SessionStateError(sessionId, state, action);
  }
}
