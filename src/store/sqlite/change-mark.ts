import type { Store } from '../store.js';
import { SqliteRole } from './connection.js';

/**
 * The store's change mark in SQLite: `PRAGMA data_version` moves when another connection (another process, such as
 * the CLI marking a check invalid) commits, and `total_changes()` counts the rows this connection changed. Together
 * they move on every write from anywhere, and cost one statement each.
 */
export class SqliteChangeMark extends SqliteRole implements Pick<Store, 'changeMark'> {
  readonly #sql = this.statements({
    others: 'PRAGMA data_version',
    own: 'SELECT total_changes()',
  });

  async changeMark(): Promise<string> {
    this.live('read the change mark');
    return `${String(this.#sql.others.pluck().get())}:${String(this.#sql.own.pluck().get())}`;
  }
}
