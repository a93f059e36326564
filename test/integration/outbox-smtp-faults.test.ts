import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { queueOneMessage } from '../helpers/outbox-store.js';
import { projectRoot } from '../helpers/paths.js';
import { joined } from '../helpers/pattern.js';
import {
  makeMailFolder,
  removeFolder,
  startSmtpSink,
  startTrickleServer,
  type TrickleServer,
} from '../helpers/smtp.js';

/**
 * `qpswatch outbox --send` against real SMTP servers on 127.0.0.1. One trickles one byte every 1.5 s: the send is
 * bounded by smtp_timeout_seconds as a whole, and SIGTERM stops it at once; the message stays pending either way.
 * One offers no STARTTLS: a configured login is refused with one line naming smtp_allow_plaintext_auth, and the
 * password never crosses the wire nor reaches the output.
 */
let root = '';
let trickle: TrickleServer | undefined;

async function writeConfig(timeoutSeconds: number, port = trickle!.port, extra: string[] = []): Promise<string> {
  const file = join(root, `qpswatch-${timeoutSeconds}-${port}.yaml`);
  const lines = [
    `state_dir: ${join(root, 'state')}`,
    'log_level: warn',
    'email_to: [dba@example.org]',
    'smtp_host: 127.0.0.1',
    `smtp_port: ${port}`,
    `smtp_timeout_seconds: ${timeoutSeconds}`,
    ...extra,
    '',
  ];
  await writeFile(file, lines.join('\n'));
  return file;
}

before(async () => {
  root = await mkdtemp('/tmp/qpsw-outbox-');
  trickle = await startTrickleServer({ intervalMs: 1500 });
  await queueOneMessage(join(root, 'state'), 'qpswatch: trickle test');
});

after(async () => {
  await trickle?.close();
  await rm(root, { recursive: true, force: true });
});

describe('outbox --send against a server that trickles bytes', () => {
  test('returns within about smtp_timeout_seconds, the message pending with one line that says why', async () => {
    const config = await writeConfig(1);
    const started = Date.now();
    const result = await runCli(['--config', config, 'outbox', '--send'], { timeoutMs: 60_000 });
    const elapsed = Date.now() - started;
    assert.equal(result.code, 1, result.stderr);
    // 1 s of SMTP plus the start of node and the store; before this fix it took 39 s.
    assert.ok(elapsed < 6000, `outbox --send took ${elapsed} ms`);
    assert.match(result.stdout, /^0 message\(s\) sent to 127\.0\.0\.1:\d+; 1 failed and stay pending$/m);
    const listed = await runCli(['--config', config, 'outbox'], { timeoutMs: 60_000 });
    assert.match(
      listed.stdout,
      joined(
        /pending, 1 attempt\(s\), next .*, last error: SMTP server /,
        /127\.0\.0\.1:\d+ did not take the message within /,
        /smtp_timeout_seconds \(1 s\); it is tried again later$/m,
      ),
    );
  });

  test('SIGTERM stops the send at once, and the message stays pending without a counted attempt', async () => {
    const config = await writeConfig(120);
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'outbox', '--send'],
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: process.env['HOME'] ?? '/',
          QPSWATCH_LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    // Long enough for node to start and connect; the server has sent at most two bytes by then.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const signalled = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    clearTimeout(killer);
    const elapsed = Date.now() - signalled;
    assert.ok(elapsed < 2000, `exited ${elapsed} ms after SIGTERM`);
    assert.equal(code, 1);
    assert.match(stdout, /^stopped before every message was tried; the others stay pending$/m);
    const listed = await runCli(['--config', config, 'outbox'], { timeoutMs: 60_000 });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      /^#\d+ qpswatch: trickle test\n +to dba@example\.org; pending, 1 attempt\(s\), /m,
      'only the attempt of the first test counts',
    );
  });
});

describe('outbox --send with a login, against a server without STARTTLS', () => {
  test(
    'exits 1 with one line naming smtp_allow_plaintext_auth; no AUTH and no ' + 'password on the wire or in the output',
    async () => {
      const folder = await makeMailFolder();
      const sink = await startSmtpSink({ folder });
      const password = 'cli-wire-secret-81d2';
      try {
        const config = await writeConfig(10, sink.port, ['smtp_user: qpswatch']);
        const result = await runCli(['--config', config, 'outbox', '--send'], {
          env: { QPSWATCH_SMTP_PASSWORD: password },
          timeoutMs: 60_000,
        });
        assert.equal(result.code, 1, result.stderr);
        const reasons = result.stdout.split('\n').filter((l) => l.includes('smtp_allow_plaintext_auth'));
        assert.equal(reasons.length, 1, `${result.stdout}\n${result.stderr}`);
        assert.match(
          reasons[0]!,
          joined(
            /last error: SMTP server 127\.0\.0\.1:\d+ offers no STARTTLS, /,
            /so the login \(smtp_user\) would cross the network in plain /,
            /text and was not sent: .* set smtp_allow_plaintext_auth: /,
            /true for a relay on this host$/,
          ),
        );
        const wire = await sink.wire();
        assert.match(wire, /^STARTTLS\r$/m);
        assert.doesNotMatch(wire, /^AUTH/m);
        for (const form of [
          password,
          Buffer.from(password).toString('base64'),
          Buffer.from(`\0qpswatch\0${password}`).toString('base64'),
        ]) {
          assert.ok(
            !wire.includes(form) && !result.stdout.includes(form) && !result.stderr.includes(form),
            'the password is nowhere',
          );
        }
        assert.deepEqual(await sink.received(), []);
      } finally {
        await sink.close();
        await removeFolder(folder);
      }
    },
  );
});

describe('outbox --send against a server that refuses the login', () => {
  test(
    "exits 1 with one line giving the server's 535; the message stays " + 'pending and the password reaches no output',
    async () => {
      const folder = await makeMailFolder();
      const sink = await startSmtpSink({ folder, rejectAuth: true });
      const password = 'cli-refused-secret-5e31';
      try {
        const config = await writeConfig(10, sink.port, ['smtp_user: qpswatch', 'smtp_allow_plaintext_auth: true']);
        const result = await runCli(['--config', config, 'outbox', '--send'], {
          env: { QPSWATCH_SMTP_PASSWORD: password },
          timeoutMs: 60_000,
        });
        assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
        const reasons = result.stdout.split('\n').filter((l) => l.includes('535'));
        assert.equal(reasons.length, 1, `${result.stdout}\n${result.stderr}`);
        assert.match(reasons[0]!, /last error: .*535/);
        assert.match(await sink.wire(), /^AUTH /m, 'the login was tried');
        assert.ok(
          !result.stdout.includes(password) && !result.stderr.includes(password),
          'the password is in no output',
        );
        assert.deepEqual(await sink.received(), []);
        const again = await runCli(['--config', config, 'outbox'], { timeoutMs: 60_000 });
        assert.match(again.stdout, /pending/);
      } finally {
        await sink.close();
        await removeFolder(folder);
      }
    },
  );
});
