import type { QuietHostInput, QuietHostRecord, QuietHostStore } from '../quiet-host-types.js';
import { checkId } from '../validate.js';
import { parseQuietHostInput } from '../validate-queue.js';
import { nowIso, SqlRole } from '../sql.js';
import { sessionState } from './session-states.js';

interface QuietRow {
  session_id: number;
  observation: string;
  quiet: number;
  reasons: string;
  waited_seconds: number;
  checked_at: string;
}

/** What the quiet-host check saw before each session (session_quiet_host, one row per session). */
export class QuietHosts extends SqlRole implements QuietHostStore {
  async recordQuietHost(input: QuietHostInput): Promise<void> {
    const valid = parseQuietHostInput(input);
    await this.write('record the quiet-host check', async (tx) => {
      await sessionState(tx, valid.sessionId);
      await this.dialect.upsert(tx, {
        table: 'session_quiet_host',
        row: {
          session_id: valid.sessionId,
          observation: JSON.stringify(valid.observation),
          quiet: valid.quiet ? 1 : 0,
          reasons: JSON.stringify(valid.reasons),
          waited_seconds: valid.waitedSeconds,
          checked_at: nowIso(),
        },
        key: ['session_id'],
        update: ['observation', 'quiet', 'reasons', 'waited_seconds', 'checked_at'],
      });
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
