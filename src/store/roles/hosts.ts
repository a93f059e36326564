import type { HostInput, HostRecord, HostStore } from '../host-types.js';
import { hostFromRow, type HostRow } from './rows.js';
import { checkId, parseHostInput } from '../validate.js';
import { nowIso, SqlRole } from '../sql.js';

/** The hosts table. */
export class Hosts extends SqlRole implements HostStore {
  async upsertHost(input: HostInput): Promise<number> {
    const host = parseHostInput(input);
    return this.write('upsert a host', async (tx) => {
      const at = nowIso();
      return this.dialect.upsert(tx, {
        table: 'hosts',
        row: {
          fingerprint_id: host.fingerprintId,
          fingerprint: JSON.stringify(host.fingerprint),
          first_seen_at: at,
          last_seen_at: at,
        },
        key: ['fingerprint_id'],
        update: ['fingerprint', 'last_seen_at'],
        id: 'id',
      });
    });
  }

  async getHost(id: number): Promise<HostRecord | undefined> {
    checkId('host', 'hostId', id);
    return this.read('read a host', async (tx) => {
      const row = await tx.row<HostRow>('SELECT * FROM hosts WHERE id = ?', [id]);
      return row && hostFromRow(row);
    });
  }
}
