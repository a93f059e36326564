import type { SqlDialect, SqlTx, Upsert } from '../sql.js';

/** MySQL's and MariaDB's text of the statements that differ between the backends (sql.ts, SqlDialect). */
export const mysqlDialect: SqlDialect = {
  writtenOrder: 'seq',
  lockRows: ' FOR UPDATE',

  async upsert(tx: SqlTx, u: Upsert): Promise<number> {
    const columns = Object.keys(u.row);
    // The new values are passed twice rather than read back with VALUES(), which MySQL 8.0.20 deprecates and MariaDB
    // has no replacement for. LAST_INSERT_ID(id) makes the row's id the insert id also when the row was there.
    const set = [
      ...(u.id !== undefined ? [`${u.id} = LAST_INSERT_ID(${u.id})`] : []),
      ...u.update.map((c) => `${c} = ?`),
    ].join(', ');
    const { insertId } = await tx.run(
      `INSERT INTO ${u.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
        `ON DUPLICATE KEY UPDATE ${set}`,
      [...Object.values(u.row), ...u.update.map((c) => u.row[c])],
    );
    return u.id !== undefined ? insertId : 0;
  },

  // ON DUPLICATE KEY rather than INSERT IGNORE, which would turn any other problem with the row into a warning.
  async insertUnlessKey(tx: SqlTx, u: Omit<Upsert, 'update' | 'id'>): Promise<void> {
    const columns = Object.keys(u.row);
    const key = u.key[0]!;
    await tx.run(
      `INSERT INTO ${u.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
        `ON DUPLICATE KEY UPDATE ${key} = ${key}`,
      Object.values(u.row),
    );
  },
};
