import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { messageLines, runCli } from '../helpers/cli.js';
import {
  FLEET_CONFIG_UPSTREAM,
  HOST_A,
  HOST_A_CPU,
  HOST_A_UPGRADED,
  HOST_B,
  writeFleetStore,
} from '../helpers/fleet-store.js';

/** `qpswatch report` over one store that holds the sessions of two hosts, as a fleet sharing a store would. */
describe('report across hosts, through the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-report-hosts-'));
  const config = join(dir, 'qpswatch.yaml');
  const report = (...args: string[]) => runCli(['--config', config, 'report', ...args], { timeoutMs: 60_000 });

  before(async () => {
    mkdirSync(join(dir, 'state'));
    await writeFleetStore(join(dir, 'state', 'qpswatch.sqlite'));
    writeFileSync(
      config,
      [`state_dir: ${join(dir, 'state')}`, `cache_dir: ${join(dir, 'cache')}`, ...FLEET_CONFIG_UPSTREAM, ''].join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--host shows each host on its own, against the base measured there', async () => {
    const a = await report('--host', HOST_A);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, new RegExp(`^host: ${HOST_A}$`, 'm'));
    // A: 900 / 1000 chained through its check; 10.11.4 only A ran. The history has a table per test family.
    assert.match(family(a.stdout, 'point queries'), /^10\.11\.3 +1\.00~$/m);
    assert.match(family(a.stdout, 'writes'), /^10\.11\.3 +▼0\.90 \(0\.88-0\.92\)$/m);
    assert.match(family(a.stdout, 'point queries'), /^10\.11\.4 +1\.10~$/m);
    assert.match(family(a.stdout, 'writes'), /^10\.11\.4 +0\.81~$/m);
    const b = await report('--host', HOST_B);
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, new RegExp(`^host: ${HOST_B}$`, 'm'));
    // B: 1900 / 2000, and never A's 1000 (which would read 1.90).
    assert.match(family(b.stdout, 'point queries'), /^10\.11\.3 +1\.10~$/m);
    assert.match(family(b.stdout, 'writes'), /^10\.11\.3 +0\.95~$/m);
    assert.doesNotMatch(b.stdout, /10\.11\.4/);
  });

  test('--host with an id that has no results names the ones that do', async () => {
    const r = await report('--host', 'no-such-host');
    assert.equal(r.code, 2);
    assert.match(messageLines(r.stderr).join('\n'), new RegExp(`use one of ${HOST_A}, ${HOST_B}`));
  });

  test('--by-host puts the hosts side by side, each against its own base', async () => {
    const r = await report('--by-host');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^h1: ${HOST_A} \\(.*, 2 sockets, 24 cores, 48 threads, 128 GiB\\)$`, 'm'));
    assert.match(r.stdout, new RegExp(`^h2: ${HOST_B} \\(AMD EPYC 7B13, 1 socket, 32 cores, 64 GiB\\)$`, 'm'));
    assert.match(r.stdout, /^version +point-query h1 +point-query h2 +update-index h1 +update-index h2$/m);
    assert.match(r.stdout, /^10\.11\.2 +1\.00 +1\.00 +1\.00 +1\.00$/m);
    assert.match(r.stdout, /^10\.11\.3 +1\.00~ +1\.10~ +▼0\.90 \(0\.88-0\.92\) +0\.95~$/m);
    assert.match(r.stdout, /^10\.11\.4 +1\.10~ +- +0\.81~ +-$/m);
  });

  test('--by-host --format html escapes the host inventory; csv and json carry both hosts', async () => {
    const html = await report('--by-host', '--format', 'html');
    assert.equal(html.code, 0, html.stderr);
    assert.ok(!html.stdout.includes(HOST_A_CPU), 'the CPU model went into the page unescaped');
    assert.ok(html.stdout.includes('Xeon &lt;b&gt;Gold&lt;/b&gt; &quot;6248&quot; &amp; co'));
    const csv = await report('--by-host', '--format', 'csv');
    assert.match(
      csv.stdout,
      new RegExp(`^mariadb-10\\.11,mariadb,10\\.11\\.2,10\\.11\\.3,update-index,1,,${HOST_B},`, 'm'),
    );
    const json = JSON.parse((await report('--by-host', '--format', 'json')).stdout) as { hosts: unknown[] };
    assert.equal(json.hosts.length, 2);
  });

  test('--by-host with --host, or a base no host measured, is refused with the fix', async () => {
    const both = await report('--by-host', '--host', HOST_A);
    assert.equal(both.code, 2);
    assert.match(messageLines(both.stderr).join('\n'), /--host and --by-host do not go together/);
    const base = await report('--by-host', '--base', '10.11.9');
    assert.equal(base.code, 2);
    assert.match(
      messageLines(base.stderr).join('\n'),
      /base "10\.11\.9" has no results on any host.*10\.11\.2, 10\.11\.3/,
    );
  });
});

describe('report after a kernel upgrade of one machine, through the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-report-upgrade-'));
  const config = join(dir, 'qpswatch.yaml');
  const report = (...args: string[]) => runCli(['--config', config, 'report', ...args], { timeoutMs: 60_000 });

  before(async () => {
    mkdirSync(join(dir, 'state'));
    await writeFleetStore(join(dir, 'state', 'qpswatch.sqlite'), { upgradeA: true });
    writeFileSync(
      config,
      [`state_dir: ${join(dir, 'state')}`, `cache_dir: ${join(dir, 'cache')}`, ...FLEET_CONFIG_UPSTREAM, ''].join('\n'),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the new host says when it changed, what changed, and where the results before it are', async () => {
    const r = await report();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^host: ${HOST_A_UPGRADED}$`, 'm'));
    assert.match(
      r.stdout,
      new RegExp(
        `^host changed on db-a, \\d{4}-\\d\\d-\\d\\d: ${HOST_A} -> ${HOST_A_UPGRADED} ` +
          `\\(kernel 6\\.1\\.0-18-amd64 -> 6\\.1\\.0-21-amd64\\); results before it: qpswatch report --host ${HOST_A}$`,
        'm',
      ),
    );
    // The other machine of the fleet (no runner named) is not taken for this one.
    assert.doesNotMatch(r.stdout, new RegExp(HOST_B));
    const json = JSON.parse((await report('--format', 'json')).stdout) as { hostChanges: Array<{ changed: unknown }> };
    assert.deepEqual(json.hostChanges[0]?.changed, [{ fact: 'kernel', from: '6.1.0-18-amd64', to: '6.1.0-21-amd64' }]);
    const before = await report('--host', HOST_A);
    assert.doesNotMatch(before.stdout, /host changed/, 'the older host has no change before it');
  });
});

/** The history's table of one test family ("Relative QPS at 1 thread: writes (...)"), up to the next table. */
function family(stdout: string, name: string): string {
  const start = stdout.indexOf(`Relative QPS at 1 thread: ${name} (`);
  assert.ok(start >= 0, `no table of ${name} in:\n${stdout}`);
  const next = stdout.indexOf('Relative QPS at', start + 1);
  return stdout.slice(start, next < 0 ? undefined : next);
}
