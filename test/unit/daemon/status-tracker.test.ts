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

test(
  'the phase is kept in memory and written to the store, with the wait ' + 'reason; stopping clears the pid',
  async () => {
    const store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    try {
      const { added } = await store.recordReleases([
        {
          upstream: 'demo',
          flavor: 'mariadb',
          tag: 'mariadb-10.11.1',
          commit: 'a'.repeat(40),
          version: '10.11.1',
          versionKey: '010.011.001',
        },
      ]);
      await store.enqueueReleases(
        'this-host',
        added.map((r) => r.id),
      );
      const status = new StatusTracker(store, createLogger('silent', 'json'), 4242);
      await status.setPhase('waiting_for_quiet_host', { tag: 'mariadb-10.11.1' });
      const since = status.get().since;
      await status.setPhase('waiting_for_quiet_host', {
        tag: 'mariadb-10.11.1',
        reason: 'CPU busy 80% over 10 s, limit 10%',
        waitedSeconds: 10,
      });
      const now = status.get();
      assert.equal(now.phase, 'waiting_for_quiet_host');
      assert.equal(now.since, since, 'the same wait keeps its start');
      assert.equal(now.quietWaitSeconds, 10);
      assert.equal(now.waitingReason, 'CPU busy 80% over 10 s, limit 10%');
      assert.equal(now.queue.discovered, 1);
      const stored = await store.getDaemonState('');
      assert.equal(stored.phase, 'waiting_for_quiet_host');
      assert.equal(stored.detail, 'mariadb-10.11.1: CPU busy 80% over 10 s, limit 10%');
      assert.equal(stored.pid, 4242);
      await status.setPhase('benchmarking', { tag: 'mariadb-10.11.1' });
      assert.equal(status.get().quietWaitSeconds, 0);
      await status.stopped();
      assert.deepEqual([status.phase, (await store.getDaemonState('')).pid], ['idle', null]);
    } finally {
      await store.close();
    }
  },
);

test(
  'progress is kept in memory at once, written to the store at most every ' +
    'few seconds and at each step, and a new phase clears it',
  async () => {
    const store = await openStore({ backend: 'sqlite', path: join(dir, 'progress.sqlite') });
    try {
      const sizes = { measuredAt: '2026-01-02T03:04:05.000Z', bytes: { ccache: 1, mirrors: 2, builds: 3 } };
      const status = new StatusTracker(store, createLogger('silent', 'json'), 4242, {
        progressWriteMs: 60_000,
        measureCacheSizes: () => Promise.resolve(sizes),
      });
      await status.setPhase('building', { tag: 'mariadb-10.11.1' });
      const work = (step: string, done: number) =>
        ({
          kind: 'build',
          tag: 'mariadb-10.11.1',
          step,
          done,
          total: 100,
          ratio: done / 100,
          startedAt: '2026-01-02T03:04:05.000Z',
          endsAt: null,
          etaFrom: null,
        }) as const;
      status.setProgress(work('build', 1));
      status.setProgress(work('build', 2));
      assert.equal(status.progress().work?.ratio, 0.02, 'the memory has the newest');
      await status.setPhase('building', { tag: 'mariadb-10.11.1' });
      assert.equal(
        (await store.getDaemonState('')).progress?.ratio,
        0.01,
        'the store has the first of the step; the next only after progressWriteMs',
      );
      status.setProgress(work('install', 100));
      await status.setPhase('building', { tag: 'mariadb-10.11.1' });
      assert.equal((await store.getDaemonState('')).progress?.ratio, 1, 'a new step is written at once');
      assert.deepEqual(status.progress().cacheSizes, sizes, 'measured in the background when a phase began');
      assert.deepEqual((await store.getDaemonState('')).cacheSizes, sizes);
      await status.setPhase('benchmarking', { tag: 'mariadb-10.11.1' });
      assert.equal(status.progress().work, null);
      assert.equal((await store.getDaemonState('')).progress, null);
      await status.stopped();
    } finally {
      await store.close();
    }
  },
);
