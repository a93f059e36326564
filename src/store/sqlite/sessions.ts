import { HostNotFoundError } from '../errors.js';
import type { SessionInput, SessionQuery, SessionRecord, SessionState, SessionStore } from '../session-types.js';
import { checkId, checkText, parseSessionInput, parseSessionQuery } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import { sessionFromRow, targetColumns, type SessionRow } from '../roles/rows.js';
import { FigurePacks } from './figure-packs.js';
import { SessionStates } from './session-states.js';
import { ranHere, type RunningRow } from '../session-runner.js';

/** The sessions table: a session is written as it runs and leaves `running` once, for done, failed or interrupted. */
export class SqliteSessions extends SqliteRole implements SessionStore {
  readonly #states = new SessionStates(this.connection);
  readonly #figures = new FigurePacks(this.connection);
  readonly #sql = this.statements({
    hostExists: 'SELECT 1 FROM hosts WHERE id = ?',
    insert: `
      INSERT INTO sessions (kind, host_id, state,
        baseline_name, baseline_flavor, baseline_version, baseline_binary, baseline_server_profile,
          baseline_description,
        candidate_name, candidate_flavor, candidate_version, candidate_binary, candidate_server_profile,
        candidate_description, suite, rounds, pid, pid_start_ticks, settings, started_at)
      VALUES (@kind, @host_id, 'running',
        @baseline_name, @baseline_flavor, @baseline_version, @baseline_binary, @baseline_server_profile,
        @baseline_description, @candidate_name, @candidate_flavor, @candidate_version, @candidate_binary,
        @candidate_server_profile, @candidate_description, @suite, @rounds, @pid, @pid_start_ticks, @settings,
          @started_at)`,
    get: 'SELECT * FROM sessions WHERE id = ?',
    list: 'SELECT * FROM sessions WHERE (@state IS NULL OR state = @state) ORDER BY id DESC LIMIT @limit',
    running: "SELECT id, pid, pid_start_ticks, settings FROM sessions WHERE state = 'running' ORDER BY id",
    end: `
      UPDATE sessions SET state = @state, error = @error, ended_at = @at
      WHERE id = @id AND state = 'running'`,
  });

  async createSession(input: SessionInput): Promise<number> {
    const session = parseSessionInput(input);
    return this.write('create a session', () => {
      if (!this.#sql.hostExists.get(session.hostId)) throw new HostNotFoundError(session.hostId);
      const result = this.#sql.insert.run({
        kind: session.kind,
        host_id: session.hostId,
        ...targetColumns('baseline', session.baseline),
        ...targetColumns('candidate', session.candidate),
        suite: session.suite,
        rounds: session.rounds,
        pid: session.pid,
        pid_start_ticks: session.pidStartTicks ?? null,
        settings: JSON.stringify(session.settings),
        started_at: nowIso(),
      });
      return Number(result.lastInsertRowid);
    });
  }

  async finishSession(id: number): Promise<void> {
    await this.#end(checkId('session', 'sessionId', id), 'done', null, 'finish');
  }

  async failSession(id: number, error: string): Promise<void> {
    await this.#end(checkId('session', 'sessionId', id), 'failed', checkText('session', 'error', error), 'fail');
  }

  async interruptSession(id: number, reason: string): Promise<void> {
    await this.#end(
      checkId('session', 'sessionId', id),
      'interrupted',
      checkText('session', 'error', reason),
      'interrupt',
    );
  }

  async getSession(id: number): Promise<SessionRecord | undefined> {
    checkId('session', 'sessionId', id);
    const row = await this.read('read a session', () => this.#sql.get.get(id) as SessionRow | undefined);
    return row && sessionFromRow(row);
  }

  async listSessions(query: SessionQuery): Promise<SessionRecord[]> {
    const { limit, state } = parseSessionQuery(query);
    const rows = await this.read(
      'list sessions',
      () => this.#sql.list.all({ limit, state: state ?? null }) as SessionRow[],
    );
    return rows.map(sessionFromRow);
  }

  async recoverInterrupted(
    runner: string,
    isAlive: (pid: number, startTicks: number | undefined) => boolean,
  ): Promise<number> {
    return this.write('recover interrupted sessions', () => {
      const running = this.#sql.running.all() as RunningRow[];
      const at = nowIso();
      let marked = 0;
      for (const { id, pid, pid_start_ticks: startTicks } of running.filter((r) => ranHere(r.settings, runner))) {
        if (isAlive(pid, startTicks ?? undefined)) continue;
        marked += this.#sql.end.run({ id, state: 'interrupted', error: null, at }).changes;
      }
      return marked;
    });
  }

  #end(id: number, state: SessionState, error: string | null, action: string): Promise<void> {
    return this.write(`${action} a session`, () => {
      this.#states.requireRunning(id, action);
      this.#sql.end.run({ id, state, error, at: nowIso() });
      // A done session never changes again: its figures are packed once, for /metrics (figure-packs.ts).
      if (state === 'done') this.#figures.writePack(id);
    });
  }
}
