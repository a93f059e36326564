import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultSqlitePath, openStore, type Store } from '../../src/store/index.js';
import { messageLines, runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { projectRoot } from '../helpers/paths.js';
import { queueOneMessage } from '../helpers/outbox-store.js';

/**
 * What the CLI prints for people and scripts: outbox --json, status times, and the message for a config without
 * upstreams.
 */
let dir: string;
let config: string;
const cli = (...args: string[]) => runCli(['--config', config, ...args], { cwd: dir, env: { QPSWATCH_ROOT: dir } });

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(join(dir, 'state')) });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

before(async () => {
  dir = letServerPass(await mkdtemp(join(tmpdir(), 'qpswatch-operator-output-')));
  config = join(dir, 'qpswatch.yaml');
  await writeFile(config, `state_dir: ${join(dir, 'state')}\n`);
  await queueOneMessage(join(dir, 'state'), 'regression: mariadb 10.11.3');
});
after(() => rm(dir, { recursive: true, force: true }));

describe('outbox --json', () => {
  test('one JSON document: the pending messages with state, attempts, next attempt and last error', async () => {
    const next = new Date(Date.now() + 3 * 3600_000).toISOString();
    await withStore(async (s) =>
      s.markMessageFailed((await s.listMessages('pending'))[0]!.id, 'connect ECONNREFUSED 127.0.0.1:25', next),
    );
    const result = await cli('outbox', '--json');
    assert.equal(result.code, 0, result.stderr);
    const messages = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    assert.equal(messages.length, 1);
    assert.deepEqual(
      { ...messages[0], id: 0 },
      {
        id: 0,
        subject: 'regression: mariadb 10.11.3',
        to: ['dba@example.org'],
        state: 'pending',
        attempts: 1,
        nextAttemptAt: next,
        lastError: 'connect ECONNREFUSED 127.0.0.1:25',
        sentAt: null,
        detail: null,
      },
    );
  });

  test('with --send: refused in one line that says what to run', async () => {
    const result = await cli('outbox', '--json', '--send');
    assert.equal(result.code, 2);
    assert.equal(
      messageLines(result.stderr)[0],
      'qpswatch: --json lists, --send sends: run `qpswatch outbox --send`, then `qpswatch outbox --json`',
    );
  });
});

describe('status prints times as people read them', () => {
  test('the last poll and the next attempt of a pending email, relative to now', async () => {
    await withStore((s) =>
      s.setDaemonState('', { lastPollAt: new Date(Date.now() - 12 * 60_000 - 5_000).toISOString() }),
    );
    const result = await cli('status');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^last poll: 12 min ago$/m);
    assert.match(
      result.stdout,
      /^ {2}\d+ {2}"regression: mariadb 10\.11\.3" {2}1 attempt\(s\), next attempt in 2 h, last error: /m,
    );
    const json = JSON.parse((await cli('status', '--json')).stdout) as { daemon: { lastPollAt: string } };
    assert.match(json.daemon.lastPollAt, /^\d{4}-\d\d-\d\dT/, '--json keeps ISO times');
  });
});

describe('a config without upstreams', () => {
  for (const command of ['discover', 'once']) {
    test(`${command}: names the config and an example file that exists`, async () => {
      const result = await cli(command);
      assert.equal(result.code, 2);
      const line = messageLines(result.stderr)[0] ?? '';
      assert.ok(
        line.startsWith(`qpswatch: config ${config} has no upstreams: add one under upstreams: (an example: `),
        line,
      );
      const example = /an example: (\S+);/.exec(line)?.[1];
      assert.ok(example !== undefined && existsSync(example), `the example ${example} exists`);
    });
  }
});

describe('a reader that closes the pipe', () => {
  test('`qpswatch config show | head -c 1`: exit 0 and no stack trace, not an unhandled EPIPE', async () => {
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'config', 'show'],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', QPSWATCH_ROOT: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // The reader goes away before the CLI writes: every write of the CLI meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  test('a closed stderr: a refused command still exits 2, not 1 from an unhandled EPIPE', async () => {
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'report', '--format', 'nope'],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', QPSWATCH_ROOT: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr.destroy();
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stdout, '');
    assert.equal(code, 2);
  });
});
