import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../src/log/index.js';
import { waitForQuietHost, type QuietHostSettings } from '../../../src/daemon/index.js';
import type { QuietHostObservation } from '../../../src/sampling/index.js';

const log = createLogger('silent', 'json');
const settings: QuietHostSettings = {
  limits: { maxBusyPercent: 10, minAvailableBytes: 1e9, maxSwapPagesPerSecond: 10, governors: [] },
  windowSeconds: 5,
  maxWaitSeconds: 20,
};
const obs = (busyPercent: number): QuietHostObservation => ({
  windowSeconds: 5,
  busyPercent,
  availableBytes: 4e9,
  swapPagesPerSecond: 0,
  governors: ['none'],
  loadAverage1: 0.5,
  cpuidleDriver: 'none',
  cpuidleGovernor: 'menu',
});

/** A fake host: each look takes its window on a fake clock and returns the next observation of the list. */
function fakeHost(busy: number[]) {
  let clock = 0;
  const seen: Array<{ reasons: readonly string[]; waited: number }> = [];
  return {
    seen,
    deps: {
      log,
      signal: new AbortController().signal,
      now: () => clock,
      observe: async (window: number) => {
        clock += window * 1000;
        return obs(busy.shift() ?? 0);
      },
      onBusy: (reasons: readonly string[], waited: number) => void seen.push({ reasons, waited }),
    },
  };
}

test('a quiet host starts the session after one look, with no wait reported', async () => {
  const host = fakeHost([3]);
  const wait = await waitForQuietHost(settings, host.deps);
  assert.equal(wait.verdict.quiet, true);
  assert.equal(wait.waitedSeconds, 5);
  assert.deepEqual(host.seen, []);
});

test('a busy host is looked at again every window, each time with the reasons, until it is quiet', async () => {
  const host = fakeHost([80, 60, 2]);
  const wait = await waitForQuietHost(settings, host.deps);
  assert.equal(wait.verdict.quiet, true);
  assert.equal(wait.waitedSeconds, 15);
  assert.deepEqual(
    host.seen.map((s) => s.waited),
    [5, 10],
  );
  assert.match(host.seen[0]!.reasons[0]!, /^CPU busy 80% over 5 s, limit 10%/);
});

test('a host busy past the longest wait runs anyway, keeping the last observation and its reasons', async () => {
  const host = fakeHost([90, 90, 90, 90, 90, 90]);
  const wait = await waitForQuietHost(settings, host.deps);
  assert.equal(wait.verdict.quiet, false);
  assert.equal(wait.waitedSeconds, 20);
  assert.equal(wait.verdict.observation.busyPercent, 90);
  assert.equal(host.seen.length, 3);
});

test('an abort stops the wait at once', async () => {
  const controller = new AbortController();
  const observe = (_w: number, opts: { signal: AbortSignal }) =>
    new Promise<QuietHostObservation>((_, reject) =>
      opts.signal.addEventListener('abort', () => reject(opts.signal.reason)),
    );
  const waiting = waitForQuietHost(settings, { log, signal: controller.signal, observe });
  controller.abort(new Error('stopped by SIGTERM'));
  await assert.rejects(waiting, /stopped by SIGTERM/);
});
