import type { Store } from '../store.js';
import { SqliteRole } from './connection.js';

/**
 * The results mark in SQLite: one counter row that triggers move on every insert, update and delete of the tables
 * results are read from (migration 11), by any process. A read of it sees what other processes committed.
 */
export class SqliteResultsMark extends SqliteRole implements Pick<Store, 'resultsMark'> {
  readonly #sql = this.statements({ mark: 'SELECT n FROM results_mark WHERE id = 1' });

  async resultsMark(): Promise<string> {
    return this.read('read the results mark', () => String(this.#sql.mark.pluck().get()));
  }
}
