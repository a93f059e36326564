import type { SqlDialect, SqlTx, Upsert } from '../sql.js';

/** SQLite's text of the statements that differ between the backends (sql.ts, SqlDialect). */
export const sqliteDialect: SqlDialect = {
  writtenOrder: 'rowid',
  lockRows: '',

  async upsert(tx: SqlTx, u: Upsert): Promise<number> {
    const columns = Object.keys(u.row);
    const set = u.update.map((c) => `${c} = excluded.${c}`).join(', ');
    const sql =
      `INSERT INTO ${u.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
      `ON CONFLICT (${u.key.join(', ')}) DO UPDATE SET ${set}` +
      (u.id !== undefined ? ` RETURNING ${u.id} AS id` : '');
    const values = Object.values(u.row);
    if (u.id === undefined) {
      await tx.run(sql, values);
      return 0;
    }
    return Number((await tx.row<{ id: number }>(sql, values))!.id);
  },

  async insertUnlessKey(tx: SqlTx, u: Omit<Upsert, 'update' | 'id'>): Promise<void> {
    const columns = Object.keys(u.row);
    await tx.run(
      `INSERT INTO ${u.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
        `ON CONFLICT (${u.key.join(', ')}) DO NOTHING`,
      Object.values(u.row),
    );
  },
};
