import type { Store } from '../store.js';
import { SqlRole } from '../sql.js';

/**
 * The results mark: one counter row that moves on every write of the tables results are read from, by any process,
 * so a read of it sees what other processes committed. SQLite's triggers move it (migration 11); in MySQL,
 * MysqlConnection.write moves it in a write transaction that changed a results table (mysql/connection.ts).
 */
export class ResultsMark extends SqlRole implements Pick<Store, 'resultsMark'> {
  async resultsMark(): Promise<string> {
    return this.read('read the results mark', async (tx) => {
      const row = await tx.row<{ n: number }>('SELECT n FROM results_mark WHERE id = 1');
      return String(row?.n ?? 0);
    });
  }
}
