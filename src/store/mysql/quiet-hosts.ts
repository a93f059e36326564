import { SessionNotFoundError } from '../errors.js';
import type { QuietHostInput, QuietHostRecord, QuietHostStore } from '../quiet-host-types.js';
import { checkId } from '../validate.js';
import { parseQuietHostInput } from '../validate-queue.js';
import { MysqlRole, nowIso } from './connection.js';

interface QuietRow {
  session_id: number;
  observation: string;
  quiet: number;
  reasons: string;
  waited_seconds: number;
  checked_at: string;
}

/** What the quiet-host check saw before each session (session_quiet_host, one row per session). */
export class MysqlQuietHosts extends MysqlRole implements QuietHostStore {
  async recordQuietHost(input: QuietHostInput): Promise<void> {
    const valid = parseQuietHostInput(input);
    await this.write('record the quiet-host check', async (tx) => {
      if ((await tx.row('SELECT state FROM sessions WHERE id = ?', [valid.sessionId])) === undefined)
        throw new SessionNotFoundError(valid.sessionId);
      const fields = [
        JSON.stringify(valid.observation),
        valid.quiet ? 1 : 0,
        JSON.stringify(valid.reasons),
        valid.waitedSeconds,
        nowIso(),
      ];
      // The values twice rather than VALUES(), which MySQL 8 deprecates and MariaDB's replacement lacks.
      await tx.run(
        `INSERT INTO session_quiet_host (session_id, observation, quiet, reasons, waited_seconds, checked_at)
          VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE observation = ?, quiet = ?, reasons = ?,
          waited_seconds = ?, checked_at = ?`,
        [valid.sessionId, ...fields, ...fields],
      );
    });
  }

  async getQuietHost(sessionId: number): Promise<QuietHostRecord | undefined> {
    checkId('session', 'sessionId', sessionId);
    return this.read('read the quiet-host check', async (tx) => {
      const row = await tx.row<QuietRow>('SELECT * FROM session_quiet_host WHERE session_id = ?', [sessionId]);
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
