import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { startMetricsServer } from '../../../src/metrics/index.js';
import { FakeSource } from './fake-source.js';

const log = pino({ level: 'silent' });

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with how long the server took to close the socket (ms), or undefined if it was still open at `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.on('error', () => undefined);
  });
}

/** /healthz's status once a connection is taken within `ms` (a refused or cut one is tried again). */
async function healthWithin(url: string, ms: number): Promise<number | undefined> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return undefined;
}

test('connections past the cap are closed at once; those within it are served', async () => {
  const server = await startMetricsServer({ port: 0, source: new FakeSource(), log, maxConnections: 4 });
  const held: Socket[] = [];
  try {
    for (let i = 0; i < 4; i++) held.push(await open(server.port));
    const extra = await open(server.port);
    assert.notEqual(await closedWithin(extra, 2000), undefined, 'the fifth connection was kept open');
    held.pop()!.destroy();
    // The server counts the closed connection when its close event runs: a loaded host may take a while.
    assert.equal(await healthWithin(server.url, 5000), 200);
  } finally {
    for (const s of held) s.destroy();
    await server.close();
  }
});

test('a client that trickles its headers is cut off after the header timeout', async () => {
  const server = await startMetricsServer({ port: 0, source: new FakeSource(), log, headersTimeoutMs: 400 });
  try {
    const slow = await open(server.port);
    slow.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => slow.write('X-A: b\r\n'), 100);
    const after = await closedWithin(slow, 5000);
    clearInterval(trickle);
    assert.notEqual(after, undefined, 'still open after 5 s');
    assert.ok(after! < 3000, `closed after ${after} ms`);
  } finally {
    await server.close();
  }
});
