import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writePack } from '../../../src/store/roles/figure-packs.js';
import type { SqlTx } from '../../../src/store/sql.js';

/**
 * A transaction whose statements are logged; `fail` names what throws. The real savepoint on SQLite has its test in
 * sqlite.test.ts (a trigger fails the pack's insert); what a real full disk does to a whole transaction cannot be
 * made on demand, so the case where no savepoint is left is this fake's.
 */
function fakeTx(fail: { insert?: Error; rollbackTo?: Error }): { tx: SqlTx; said: string[] } {
  const said: string[] = [];
  const tx: SqlTx = {
    rows: async (sql) => {
      said.push(sql.trim().split(/\s+/).slice(0, 2).join(' '));
      return [];
    },
    row: async () => undefined,
    run: async (sql) => {
      said.push(sql.split(' (')[0]!.trim());
      if (sql.startsWith('REPLACE INTO') && fail.insert) throw fail.insert;
      if (sql.startsWith('ROLLBACK TO') && fail.rollbackTo) throw fail.rollbackTo;
      return { affectedRows: 1, insertId: 0 };
    },
  };
  return { tx, said };
}

test('a pack that fails is rolled back to its savepoint, and the session end goes on', async () => {
  const { tx, said } = fakeTx({ insert: new Error('row too large') });
  await writePack(tx, 7);
  assert.deepEqual(said, [
    'SAVEPOINT pack',
    'SELECT s.role,',
    'REPLACE INTO session_figures',
    'ROLLBACK TO SAVEPOINT pack',
  ]);
});

test('a failure that ended the whole transaction is thrown as itself, not as the missing savepoint', async () => {
  const full = new Error('SQLITE_FULL: database or disk is full');
  const { tx } = fakeTx({ insert: full, rollbackTo: new Error('no such savepoint: pack') });
  await assert.rejects(writePack(tx, 7), (err) => err === full);
});
