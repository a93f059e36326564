import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidRecordError, SessionNotFoundError, SessionStateError, type Store } from '../../../src/store/index.js';
import { hostInput, sessionInput } from './store-inputs.js';

/**
 * Every backend keeps each side's server variables and statement plans of a running session, reads them back, and
 * refuses bad ones.
 */
export function sessionSidesContract(backend: string, open: () => Promise<Store>): void {
  async function withSession(body: (store: Store, sessionId: number) => Promise<void>): Promise<void> {
    const store = await open();
    try {
      await body(store, await store.createSession(sessionInput(await store.upsertHost(hostInput()))));
    } finally {
      await store.close();
    }
  }

  describe(`${backend} store: what each side ran with`, () => {
    test("each side's variables read back as stored; a second record of a side replaces it", () =>
      withSession(async (store, sessionId) => {
        assert.deepEqual(await store.serverVariables(sessionId), {});
        await store.recordServerVariables(sessionId, 'baseline', { sync_binlog: '0', ft_boolean_syntax: '+ -><()' });
        assert.deepEqual(await store.serverVariables(sessionId), {
          baseline: { sync_binlog: '0', ft_boolean_syntax: '+ -><()' },
        });
        await store.recordServerVariables(sessionId, 'candidate', { sync_binlog: '1', init_file: '' });
        await store.recordServerVariables(sessionId, 'baseline', { sync_binlog: '2' });
        assert.deepEqual(await store.serverVariables(sessionId), {
          baseline: { sync_binlog: '2' },
          candidate: { sync_binlog: '1', init_file: '' },
        });
      }));

    test('plans read back as stored, beside the variables; each kind is kept on its own', () =>
      withSession(async (store, sessionId) => {
        const plans = [
          {
            test: 'point-query',
            statement: 'SELECT c FROM sbtest1 WHERE id=?',
            plan: { table: { access_type: 'const' } },
          },
          { test: 'insert', statement: 'INSERT INTO t VALUES (?)', error: 'You have an error in your SQL syntax' },
        ];
        await store.recordStatementPlans(sessionId, 'candidate', plans);
        assert.deepEqual(await store.statementPlans(sessionId), { candidate: plans });
        assert.deepEqual(await store.serverVariables(sessionId), {}, 'no variables kept yet');
        await store.recordServerVariables(sessionId, 'candidate', { sync_binlog: '1' });
        assert.deepEqual(await store.statementPlans(sessionId), { candidate: plans }, 'the plans stay');
        await assert.rejects(
          store.recordStatementPlans(sessionId, 'baseline', [{ test: '', statement: 'x', plan: {} }]),
          InvalidRecordError,
        );
        await assert.rejects(
          store.recordStatementPlans(sessionId, 'baseline', [{ test: 't', statement: 'x', plan: { rows: NaN } }]),
          InvalidRecordError,
        );
      }));

    test('only a running session takes them; an unknown session or a bad side is refused, naming it', () =>
      withSession(async (store, sessionId) => {
        await store.finishSession(sessionId);
        await assert.rejects(store.recordServerVariables(sessionId, 'baseline', { a: '1' }), SessionStateError);
        await assert.rejects(store.recordServerVariables(sessionId + 1, 'baseline', { a: '1' }), SessionNotFoundError);
        await assert.rejects(
          store.recordServerVariables(sessionId, 'both' as 'baseline', { a: '1' }),
          (err: unknown) => err instanceof InvalidRecordError && /role/.test(err.message),
        );
        await assert.rejects(
          store.recordServerVariables(sessionId, 'baseline', { a: 1 as unknown as string }),
          InvalidRecordError,
        );
        assert.deepEqual(await store.serverVariables(sessionId), {});
      }));
  });
}
