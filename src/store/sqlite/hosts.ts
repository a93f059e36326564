import type { HostInput, HostRecord, HostStore } from '../host-types.js';
import { checkId, parseHostInput } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import { hostFromRow, type HostRow } from './rows.js';

/** The hosts table. */
export class SqliteHosts extends SqliteRole implements HostStore {
  readonly #sql = this.statements({
    upsert: `
      INSERT INTO hosts (fingerprint_id, fingerprint, first_seen_at, last_seen_at)
      VALUES (@fingerprint_id, @fingerprint, @at, @at)
      ON CONFLICT (fingerprint_id) DO UPDATE SET fingerprint = excluded.fingerprint, last_seen_at =
        excluded.last_seen_at
      RETURNING id`,
    get: 'SELECT * FROM hosts WHERE id = ?',
  });

  async upsertHost(input: HostInput): Promise<number> {
    const host = parseHostInput(input);
    const row = await this.write(
      'upsert a host',
      () =>
        this.#sql.upsert.get({
          fingerprint_id: host.fingerprintId,
          fingerprint: JSON.stringify(host.fingerprint),
          at: nowIso(),
        }) as { id: number },
    );
    return row.id;
  }

  async getHost(id: number): Promise<HostRecord | undefined> {
    checkId('host', 'hostId', id);
    const row = await this.read('read a host', () => this.#sql.get.get(id) as HostRow | undefined);
    return row && hostFromRow(row);
  }
}
