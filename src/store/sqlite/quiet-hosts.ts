import type { QuietHostInput, QuietHostRecord, QuietHostStore } from '../quiet-host-types.js';
import { checkId } from '../validate.js';
import { parseQuietHostInput } from '../validate-queue.js';
import { nowIso, SqliteRole } from './connection.js';
import { SessionStates } from './session-states.js';

interface QuietRow {
  session_id: number;
  observation: string;
  quiet: number;
  reasons: string;
  waited_seconds: number;
  checked_at: string;
}

/** What the quiet-host check saw before each session (session_quiet_host, one row per session). */
export class SqliteQuietHosts extends SqliteRole implements QuietHostStore {
  readonly #states = new SessionStates(this.connection);
  readonly #sql = this.statements({
    upsert: `INSERT INTO session_quiet_host (session_id, observation, quiet, reasons, waited_seconds, checked_at)
      VALUES (@session_id, @observation, @quiet, @reasons, @waited_seconds, @checked_at)
      ON CONFLICT (session_id) DO UPDATE SET observation = excluded.observation, quiet = excluded.quiet, reasons =
        excluded.reasons,
        waited_seconds = excluded.waited_seconds, checked_at = excluded.checked_at`,
    get: 'SELECT * FROM session_quiet_host WHERE session_id = ?',
  });

  async recordQuietHost(input: QuietHostInput): Promise<void> {
    const valid = parseQuietHostInput(input);
    await this.write('record the quiet-host check', () => {
      this.#states.of(valid.sessionId);
      this.#sql.upsert.run({
        session_id: valid.sessionId,
        observation: JSON.stringify(valid.observation),
        quiet: valid.quiet ? 1 : 0,
        reasons: JSON.stringify(valid.reasons),
        waited_seconds: valid.waitedSeconds,
        checked_at: nowIso(),
      });
    });
  }

  async getQuietHost(sessionId: number): Promise<QuietHostRecord | undefined> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read the quiet-host check', () => {
      const row = this.#sql.get.get(sessionId) as QuietRow | undefined;
      if (row === undefined) return undefined;
      return {
        sessionId: row.session_id,
        observation: JSON.parse(row.observation) as Record<string, unknown>,
        quiet: row.quiet === 1,
        reasons: JSON.parse(row.reasons) as string[],
        waitedSeconds: row.waited_seconds,
        checkedAt: row.checked_at,
      };
    });
  }
}
