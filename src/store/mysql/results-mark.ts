import type { Store } from '../store.js';
import { MysqlRole } from './connection.js';

/**
 * The results mark in MySQL: one counter row that MysqlConnection.write moves in every write transaction that
 * changed a results table (connection.ts, RESULT_TABLES), in any process. A read of it sees what others committed.
 */
export class MysqlResultsMark extends MysqlRole implements Pick<Store, 'resultsMark'> {
  async resultsMark(): Promise<string> {
    return this.read('read the results mark', async (tx) => {
      const row = await tx.row<{ n: number }>('SELECT n FROM results_mark WHERE id = 1');
      return String(row?.n ?? 0);
    });
  }
}
