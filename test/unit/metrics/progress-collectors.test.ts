import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { registerProgressCollectors } from '../../../src/metrics/progress-collectors.js';
import type { ProgressFigures } from '../../../src/metrics/index.js';

test('the running build exports its ratio and ETA; the session none; cache bytes per kind once measured', async () => {
  let figures: ProgressFigures = { work: null, cacheSizes: null };
  const registry = new Registry();
  registerProgressCollectors(registry, () => figures);
  const idle = await registry.metrics();
  assert.match(idle, /^qpswatch_build_progress_ratio 0$/m);
  assert.doesNotMatch(idle, /^qpswatch_build_eta_seconds/m, 'no ETA while nothing runs');
  assert.doesNotMatch(idle, /^qpswatch_cache_bytes\{/m, 'no sizes before the first measure');
  const endsAt = new Date(Date.now() + 600_000).toISOString();
  figures = {
    work: {
      kind: 'build',
      tag: 't',
      step: 'build',
      done: 25,
      total: 100,
      ratio: 0.25,
      startedAt: new Date().toISOString(),
      endsAt,
      etaFrom: 'last_build',
    },
    cacheSizes: { measuredAt: new Date().toISOString(), bytes: { ccache: 1024, mirrors: 2048, builds: 4096 } },
  };
  const busy = await registry.metrics();
  assert.match(busy, /^qpswatch_build_progress_ratio 0.25$/m);
  const eta = Number(/^qpswatch_build_eta_seconds\{tag="t"\} (\S+)$/m.exec(busy)?.[1]);
  assert.ok(eta > 590 && eta <= 600, `eta ${eta}`);
  assert.match(busy, /^qpswatch_session_progress_ratio 0$/m);
  assert.doesNotMatch(busy, /^qpswatch_session_eta_seconds/m);
  assert.match(busy, /^qpswatch_cache_bytes\{kind="ccache"\} 1024$/m);
  assert.match(busy, /^qpswatch_cache_bytes\{kind="mirrors"\} 2048$/m);
  assert.match(busy, /^qpswatch_cache_bytes\{kind="builds"\} 4096$/m);
});
