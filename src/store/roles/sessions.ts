import { HostNotFoundError } from '../errors.js';
import type { SessionInput, SessionQuery, SessionRecord, SessionState, SessionStore } from '../session-types.js';
import { sessionFromRow, targetColumns, type SessionRow } from './rows.js';
import { checkId, checkText, parseSessionInput, parseSessionQuery } from '../validate.js';
import { ranHere, type RunningRow } from '../session-runner.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { writePack } from './figure-packs.js';
import { requireRunning } from './session-states.js';

const END_SQL = `UPDATE sessions SET state = ?, error = ?, ended_at = ? WHERE id = ? AND state = 'running'`;

/** The sessions table: a session is written as it runs and leaves `running` once, for done, failed or interrupted. */
export class Sessions extends SqlRole implements SessionStore {
  async createSession(input: SessionInput): Promise<number> {
    const session = parseSessionInput(input);
    const columns = {
      kind: session.kind,
      host_id: session.hostId,
      state: 'running',
      ...targetColumns('baseline', session.baseline),
      ...targetColumns('candidate', session.candidate),
      suite: session.suite,
      rounds: session.rounds,
      pid: session.pid,
      pid_start_ticks: session.pidStartTicks ?? null,
      settings: JSON.stringify(session.settings),
      started_at: nowIso(),
    };
    return this.write('create a session', async (tx) => {
      if (!(await tx.row('SELECT 1 AS yes FROM hosts WHERE id = ?', [session.hostId])))
        throw new HostNotFoundError(session.hostId);
      const names = Object.keys(columns);
      const { insertId } = await tx.run(
        `INSERT INTO sessions (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        Object.values(columns),
      );
      return insertId;
    });
  }

  async finishSession(id: number): Promise<void> {
    await this.#end(checkId('session', 'sessionId', id), 'done', null, 'finish');
  }

  async failSession(id: number, error: string): Promise<void> {
    await this.#end(checkId('session', 'sessionId', id), 'failed', checkText('session', 'error', error), 'fail');
  }

  async interruptSession(id: number, reason: string): Promise<void> {
    const text = checkText('session', 'error', reason);
    await this.#end(checkId('session', 'sessionId', id), 'interrupted', text, 'interrupt');
  }

  async getSession(id: number): Promise<SessionRecord | undefined> {
    checkId('session', 'sessionId', id);
    return this.read('read a session', async (tx) => {
      const row = await tx.row<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
      return row && sessionFromRow(row);
    });
  }

  async listSessions(query: SessionQuery): Promise<SessionRecord[]> {
    const { limit, state } = parseSessionQuery(query);
    return this.read('list sessions', async (tx) => {
      const rows = await tx.rows<SessionRow>(
        'SELECT * FROM sessions WHERE (? IS NULL OR state = ?) ORDER BY id DESC LIMIT ?',
        [state ?? null, state ?? null, limit],
      );
      return rows.map(sessionFromRow);
    });
  }

  async recoverInterrupted(
    runner: string,
    isAlive: (pid: number, startTicks: number | undefined) => boolean,
  ): Promise<number> {
    return this.write('recover interrupted sessions', async (tx) => {
      const running = await tx.rows<RunningRow>(
        "SELECT id, pid, pid_start_ticks, settings FROM sessions WHERE state = 'running' ORDER BY id",
      );
      const at = nowIso();
      let marked = 0;
      for (const { id, pid, pid_start_ticks: startTicks } of running.filter((r) => ranHere(r.settings, runner))) {
        if (isAlive(pid, startTicks ?? undefined)) continue;
        marked += (await tx.run(END_SQL, ['interrupted', null, at, id])).affectedRows;
      }
      return marked;
    });
  }

  async #end(id: number, state: SessionState, error: string | null, action: string): Promise<void> {
    await this.write(`${action} a session`, async (tx: SqlTx) => {
      await requireRunning(tx, id, action);
      await tx.run(END_SQL, [state, error, nowIso(), id]);
      // A done session never changes again: its figures are packed once, for /metrics (figure-packs.ts).
      if (state === 'done') await writePack(tx, id);
    });
  }
}
