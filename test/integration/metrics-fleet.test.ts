import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ExecNotFoundError, run } from '../../src/exec/index.js';
import { FLEET_CONFIG_UPSTREAM, HOST_A, HOST_B, writeFleetStore } from '../helpers/fleet-store.js';

/** The CLI of the same build as this test (bin/qpswatch.js runs dist/, which may be another build). */
const ENTRY = new URL('../../src/cli/run.js', import.meta.url).pathname;

/** `qpswatch metrics` as a person (or systemd) runs it: a child process whose JSON log lines the test reads. */
class FleetMetrics {
  readonly child: ChildProcess;
  log = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(config: string, listen: string) {
    this.child = spawn(process.execPath, [ENTRY, '--config', config, 'metrics', '--listen', listen], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: process.env['HOME'] ?? '/',
        QPSWATCH_LOG_FORMAT: 'json',
      },
    });
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.log += d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.log += d));
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
  }

  /** The base address it logged once listening (port 0 takes a free one), without the /metrics it logs. */
  async url(): Promise<string> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const line = this.log.split('\n').find((l) => l.includes('"metrics server listening"'));
      if (line !== undefined) return (JSON.parse(line) as { url: string }).url.replace(/\/metrics$/, '');
      if (this.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`qpswatch metrics did not start listening: ${this.log}`);
  }
}

/** "name{labels}" -> value, for qpswatch's own samples. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('qpswatch_')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const labels = (host: string, version: string, test: string): string =>
  `{host="${host}",flavor="mariadb",series="mariadb-10.11",version="${version}",` +
  `version_key="${version
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.')}",test="${test}",threads="1",profile="small-server"}`;

describe('qpswatch metrics: the fleet from one store, over real HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-metrics-fleet-'));
  const config = join(dir, 'qpswatch.yaml');
  let server: FleetMetrics;
  let url = '';
  let text = '';

  before(async () => {
    mkdirSync(join(dir, 'state'));
    await writeFleetStore(join(dir, 'state', 'qpswatch.sqlite'));
    writeFileSync(
      config,
      [`state_dir: ${join(dir, 'state')}`, `cache_dir: ${join(dir, 'cache')}`, ...FLEET_CONFIG_UPSTREAM, ''].join('\n'),
    );
    server = new FleetMetrics(config, '127.0.0.1:0');
    url = await server.url();
    const res = await fetch(`${url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    text = await res.text();
  });

  after(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('listens on loopback and answers /healthz', async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await (await fetch(`${url}/healthz`)).text(), 'ok\n');
  });

  test('both hosts, each labelled with its fingerprint id and relative to the base measured on it', () => {
    const got = samples(text);
    const rel = (host: string, v: string, t: string) => got.get(`qpswatch_relative_qps_ratio${labels(host, v, t)}`);
    assert.deepEqual(
      [
        rel(HOST_A, '10.11.2', 'update-index'),
        rel(HOST_A, '10.11.3', 'update-index'),
        rel(HOST_A, '10.11.4', 'update-index'),
      ],
      [1, 0.9, 0.81],
    );
    // B is twice as fast as A: 1900 / 2000 on B, never 1900 / 1000.
    assert.deepEqual([rel(HOST_B, '10.11.2', 'update-index'), rel(HOST_B, '10.11.3', 'update-index')], [1, 0.95]);
    assert.equal(rel(HOST_B, '10.11.4', 'update-index'), undefined);
    assert.equal(got.get(`qpswatch_qps${labels(HOST_B, '10.11.3', 'update-index')}`), 1900);
    assert.equal(
      got.get(`qpswatch_verdict_info${labels(HOST_A, '10.11.3', 'update-index').slice(0, -1)},kind="regression"}`),
      1,
    );
  });

  test("nothing of a daemon's own status: no phase, queue, builds, polls or progress", () => {
    const families = new Set([...text.matchAll(/^# TYPE (qpswatch_\w+)/gm)].map((m) => m[1]));
    for (const daemonOnly of [
      'qpswatch_phase',
      'qpswatch_queue_releases',
      'qpswatch_builds_total',
      'qpswatch_last_poll_timestamp_seconds',
      'qpswatch_active_regressions',
      'qpswatch_quiet_host_wait_seconds',
    ])
      assert.ok(!families.has(daemonOnly), `${daemonOnly} is served`);
    assert.ok(families.has('qpswatch_relative_qps_ratio') && families.has('qpswatch_build_info'));
  });

  test('promtool check metrics finds nothing to say about the qpswatch families', async (t) => {
    let result;
    try {
      result = await run({
        argv: ['promtool', 'check', 'metrics'],
        input: text,
        allowFailure: true,
        timeoutMs: 30_000,
      });
    } catch (err) {
      if (err instanceof ExecNotFoundError)
        return t.skip('promtool is not on the PATH (Debian: apt-get install prometheus)');
      throw err;
    }
    const remarks = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
    // prom-client's own nodejs_* gauges end in _total; that is prom-client's remark, not ours.
    assert.deepEqual(
      remarks.filter((l) => !l.startsWith('nodejs_')),
      [],
    );
  });

  // Last: it stops the server.
  test('SIGTERM stops it cleanly: exit 0, the port closed', async () => {
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, server.log);
    await assert.rejects(fetch(`${url}/healthz`));
  });
});
