import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidRecordError, type ProfileInput, type Store } from '../../../src/store/index.js';
import { hostInput, sessionInput } from './store-inputs.js';

const input: ProfileInput = {
  baseline: 'relaxed',
  candidate: 'durable',
  test: 'update-index',
  threads: 1,
  seconds: 10,
  baselineTool: 'perf',
  candidateTool: 'gdb',
  baselineStacks: [{ stack: 'main;write', count: 3 }],
  candidateStacks: [
    { stack: 'main;<script>;fdatasync', count: 5 },
    { stack: 'main;write', count: 1 },
  ],
};

/** Every backend keeps both sides' folded stacks of a profile as given, and refuses a malformed one. */
export function profileContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend} store: profiles`, () => {
    test('a profile reads back as it was stored, with its id and time', async () => {
      const store = await open();
      try {
        const id = await store.addProfile(input);
        const record = await store.getProfile(id);
        assert.ok(record !== undefined);
        const { id: readId, createdAt, ...rest } = record;
        assert.equal(readId, id);
        assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T/);
        assert.deepEqual(rest, input);
        assert.equal(await store.getProfile(id + 1), undefined);
      } finally {
        await store.close();
      }
    });

    test("a check's profile names its session, and the newest one of a session is found by it", async () => {
      const store = await open();
      try {
        const plain = await store.addProfile(input);
        assert.equal((await store.getProfile(plain))?.sessionId, undefined);
        const sessionId = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        assert.equal(await store.profileOfSession(sessionId), undefined);
        await store.addProfile({ ...input, sessionId });
        const newest = await store.addProfile({ ...input, test: 'point-query', sessionId });
        const found = await store.profileOfSession(sessionId);
        assert.deepEqual([found?.id, found?.test, found?.sessionId], [newest, 'point-query', sessionId]);
        assert.equal(await store.profileOfSession(sessionId + 1), undefined);
      } finally {
        await store.close();
      }
    });

    test('a stack with no samples or an unknown tool is refused, naming the field', async () => {
      const store = await open();
      try {
        await assert.rejects(
          store.addProfile({ ...input, candidateStacks: [{ stack: 'main', count: 0 }] }),
          (err: unknown) => err instanceof InvalidRecordError && err.field === 'candidateStacks[0].count',
        );
        await assert.rejects(
          store.addProfile({ ...input, baselineTool: 'dtrace' as 'perf' }),
          (err: unknown) => err instanceof InvalidRecordError && err.field === 'baselineTool',
        );
      } finally {
        await store.close();
      }
    });
  });
}
