import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { InputError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log/index.js';
import { MetricsPortInUseError, startMetricsServer, type MetricsServer } from '../../../src/metrics/index.js';
import { FakeSource } from './fake-source.js';

/** A logger whose lines the test can read. */
function captureLog(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const log: Logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

async function withServer(
  source: FakeSource,
  body: (server: MetricsServer, lines: Array<Record<string, unknown>>) => Promise<void>,
): Promise<void> {
  const { log, lines } = captureLog();
  const server = await startMetricsServer({ port: 0, source, log });
  try {
    await body(server, lines);
  } finally {
    await server.close();
  }
}

describe('metrics server', () => {
  test('binds 127.0.0.1 by default and serves /metrics in the Prometheus text format', () =>
    withServer(new FakeSource(), async (server) => {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${server.url}/metrics`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
      const text = await res.text();
      assert.match(text, /^qpswatch_qps\{host="fp-4c-16g-nvme",.*\} 1234\.5$/m);
      assert.match(text, /^process_resident_memory_bytes \d+$/m);
    }));

  test('/healthz answers 200 ok; other paths 404; other methods 405', () =>
    withServer(new FakeSource(), async (server) => {
      const health = await fetch(`${server.url}/healthz`);
      assert.deepEqual([health.status, await health.text()], [200, 'ok\n']);
      for (const path of ['/', '/metrics/', '/favicon.ico', '/healthz/x']) {
        const res = await fetch(`${server.url}${path}`);
        assert.equal(res.status, 404, path);
        await res.text();
      }
      const post = await fetch(`${server.url}/metrics`, { method: 'POST', body: 'x' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      await post.text();
    }));

  test('a query string does not change the answer (Prometheus may add one)', () =>
    withServer(new FakeSource(), async (server) => {
      const res = await fetch(`${server.url}/metrics?name[]=qpswatch_qps`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), /^qpswatch_qps\{/m);
    }));

  test('a port in use is a typed input error with one line naming the port and the fix', async () => {
    await withServer(new FakeSource(), async (server) => {
      const { log } = captureLog();
      const second = startMetricsServer({ port: server.port, source: new FakeSource(), log });
      await assert.rejects(second, (err: unknown) => {
        assert.ok(err instanceof MetricsPortInUseError);
        assert.ok(err instanceof InputError);
        assert.equal(
          err.message,
          `metrics port ${server.port} on 127.0.0.1 is in use: stop what holds it or set metrics_port`,
        );
        assert.equal(err.port, server.port);
        return true;
      });
    });
  });

  test('a source that fails answers 500 with one line, is logged, and the server keeps serving', async () => {
    const source = new FakeSource();
    await withServer(source, async (server, lines) => {
      source.failure = new Error('database is locked\n    at SqliteStore.read (store.js:1:1)');
      const res = await fetch(`${server.url}/metrics`);
      assert.equal(res.status, 500);
      assert.equal(await res.text(), 'metrics unavailable: database is locked\n');
      assert.ok(
        lines.some(
          (l) => l['msg'] === 'metrics scrape failed' && l['error'] === 'database is locked' && l['level'] === 50,
        ),
      );
      const healthz = await fetch(`${server.url}/healthz`);
      assert.equal(healthz.status, 200);
      await healthz.text();
      source.failure = undefined;
      const again = await fetch(`${server.url}/metrics`);
      assert.equal(again.status, 200);
      assert.match(await again.text(), /^qpswatch_qps\{/m);
    });
  });

  test('close() is idempotent and stops listening, even with a kept-alive connection open', async () => {
    const { log } = captureLog();
    const server = await startMetricsServer({ port: 0, source: new FakeSource(), log });
    const res = await fetch(`${server.url}/healthz`, { keepalive: true });
    await res.text();
    await Promise.all([server.close(), server.close()]);
    await server.close();
    await assert.rejects(fetch(`${server.url}/healthz`));
  });

  test('an exposition passed in is the one served, with its content type', async () => {
    const { log } = captureLog();
    const exposition = {
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      metrics: async () => 'qpswatch_phase{phase="idle",instance_role="test"} 0\n',
    };
    const server = await startMetricsServer({ port: 0, source: new FakeSource(), log, exposition });
    try {
      const res = await fetch(`${server.url}/metrics`);
      assert.equal(res.headers.get('content-type'), exposition.contentType);
      assert.equal(await res.text(), 'qpswatch_phase{phase="idle",instance_role="test"} 0\n');
    } finally {
      await server.close();
    }
  });
});
