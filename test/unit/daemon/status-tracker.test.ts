import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { StatusTracker } from '../../../src/daemon/index.js';
import { createLogger } from '../../../src/log/index.js';
import { openStore } from '../../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-status-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the phase is kept in memory and written to the store, with the wait reason; stopping clears the pid', async () => {
  const store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
  try {
    const { added } = await store.recordReleases([{ upstream: 'demo', flavor: 'mariadb', tag: 'mariadb-10.11.1', commit: 'a'.repeat(40), version: '10.11.1', versionKey: '010.011.001' }]);
    await store.enqueueReleases(added.map((r) => r.id));
    const status = new StatusTracker(store, createLogger('silent', 'json'), 4242);
    await status.setPhase('waiting_for_quiet_host', { tag: 'mariadb-10.11.1' });
    const since = status.get().since;
    await status.setPhase('waiting_for_quiet_host', { tag: 'mariadb-10.11.1', reason: 'CPU busy 80% over 10 s, limit 10%', waitedSeconds: 10 });
    const now = status.get();
    assert.equal(now.phase, 'waiting_for_quiet_host');
    assert.equal(now.since, since, 'the same wait keeps its start');
    assert.equal(now.quietWaitSeconds, 10);
    assert.equal(now.waitingReason, 'CPU busy 80% over 10 s, limit 10%');
    assert.equal(now.queue.discovered, 1);
    const stored = await store.getDaemonState();
    assert.equal(stored.phase, 'waiting_for_quiet_host');
    assert.equal(stored.detail, 'mariadb-10.11.1: CPU busy 80% over 10 s, limit 10%');
    assert.equal(stored.pid, 4242);
    await status.setPhase('benchmarking', { tag: 'mariadb-10.11.1' });
    assert.equal(status.get().quietWaitSeconds, 0);
    await status.stopped();
    assert.deepEqual([status.phase, (await store.getDaemonState()).pid], ['idle', null]);
  } finally {
    await store.close();
  }
});
