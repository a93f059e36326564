import type { HostInput, HostRecord, HostStore } from '../host-types.js';
import { hostFromRow, type HostRow } from '../sqlite/rows.js';
import { checkId, parseHostInput } from '../validate.js';
import { MysqlRole, nowIso } from './connection.js';

/** The hosts table. */
export class MysqlHosts extends MysqlRole implements HostStore {
  async upsertHost(input: HostInput): Promise<number> {
    const host = parseHostInput(input);
    return this.write('upsert a host', async (tx) => {
      const at = nowIso();
      // LAST_INSERT_ID(id) makes the row's id the insert id also when the row was there already. The values are
      // passed twice rather than read back with VALUES(), which MySQL 8.0.20 deprecates and MariaDB has no
      // replacement for.
      const fingerprint = JSON.stringify(host.fingerprint);
      const { insertId } = await tx.run(
        `INSERT INTO hosts (fingerprint_id, fingerprint, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)
         ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), fingerprint = ?, last_seen_at = ?`,
        [host.fingerprintId, fingerprint, at, at, fingerprint, at],
      );
      return insertId;
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
