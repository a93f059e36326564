import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AddressObject, ParsedMail } from 'mailparser';
import { pino } from 'pino';
import {
  createMailer,
  deliverOutbox,
  PlaintextAuthRefusedError,
  renderAlert,
  type MailSettings,
  type OutgoingMessage,
} from '../../src/notify/index.js';
import {
  freePort,
  makeMailFolder,
  parseMailFile,
  removeFolder,
  startSmtpSink,
  startTrickleServer,
  type SmtpSink,
} from '../helpers/smtp.js';
import { MemoryOutbox } from '../unit/notify/fakes.js';
import { regressionAlert } from '../unit/notify/sample-alert.js';
import { silentLog } from '../helpers/silent-log.js';
import { joined } from '../helpers/pattern.js';

const log = silentLog;

function smtpSettings(port: number): MailSettings {
  return {
    smtpHost: '127.0.0.1',
    smtpPort: port,
    smtpSecure: false,
    smtpUser: 'qpswatch',
    smtpPassword: 'not-a-secret',
    smtpAllowPlaintextAuth: false,
    outboxDir: '',
    timeoutMs: 5000,
  };
}

function alertMessage(id: number): OutgoingMessage {
  const rendered = renderAlert(regressionAlert());
  return {
    id,
    from: 'qpswatch <qpswatch@bench.test>',
    to: ['dba@example.org', 'oncall@example.org'],
    ...rendered,
    messageId: `<alert-${id}.fp-3f2a9c@qpswatch.test>`,
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value.map((a) => a.address ?? ''));
}

/** What every received or written copy of an alert must hold: the same subject, parts, sender and Message-ID. */
function assertSameMessage(parsed: ParsedMail, sent: OutgoingMessage): void {
  assert.equal(parsed.subject, sent.subject);
  assert.equal(parsed.messageId, sent.messageId);
  assert.deepEqual(addresses(parsed.from), ['qpswatch@bench.test']);
  assert.equal(parsed.from?.value[0]?.name, 'qpswatch');
  assert.deepEqual(addresses(parsed.to), [...sent.to]);
  assert.equal(parsed.text?.trimEnd(), sent.text.trimEnd());
  assert.equal(typeof parsed.html === 'string' ? parsed.html.trimEnd() : parsed.html, sent.html.trimEnd());
}

describe('the SMTP mailer against a real SMTP server', () => {
  let folder = '';
  let sink: SmtpSink | undefined;
  before(async () => {
    folder = await makeMailFolder();
    sink = await startSmtpSink({ folder });
  });
  after(async () => {
    await sink?.close();
    await removeFolder(folder);
  });

  test('an alert arrives once, with its subject, recipients, both parts and its Message-ID', async () => {
    const lines: string[] = [];
    const debugLog = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
    // This sink has no STARTTLS: a login over plain text only because the option allows it (a relay on this host).
    const mailer = createMailer({ ...smtpSettings(sink!.port), smtpAllowPlaintextAuth: true }, debugLog);
    const sent = alertMessage(1);
    const detail = await mailer.send(sent);
    await mailer.close();
    await mailer.close();
    assert.ok(lines.length > 0, 'the mailer logs what it sent');
    assert.ok(!lines.join('').includes('not-a-secret'), 'the password is not logged');
    assert.match(detail, /^250 .*queued as 0001-/);

    const received = await sink!.received();
    assert.equal(received.length, 1);
    const [mail] = received;
    assert.deepEqual(mail!.envelope, {
      from: 'qpswatch@bench.test',
      to: ['dba@example.org', 'oncall@example.org'],
      user: 'qpswatch',
    });
    assertSameMessage(mail!.parsed, sent);
    const text = mail!.parsed.text ?? '';
    assert.match(text, /^point-query\.t1 +cpu\/o +0\.000312 +0\.000331 +x1\.06$/m, 'hint in the text part');
    assert.match(text, /^Tests that moved$/m, 'the moved tests in the text part');
    const html = typeof mail!.parsed.html === 'string' ? mail!.parsed.html : '';
    assert.ok(html.includes('>What grew per operation</h2>'), 'hint heading in the html part');
    assert.ok(html.includes('>Tests that moved</h2>'), 'the moved tests in the html part');
    assert.equal(html.split('<thead>').length - 1, 2, 'the moved tests and the hint: the whole report is not sent');
    assert.ok(!mail!.raw.includes('not-a-secret'), 'the password is not in the message');
    assert.match(await sink!.wire(), /^AUTH PLAIN /m, 'the wire record shows the login that the option allowed');
  });
});

/** Every form in which the password could cross the wire: as written, and in AUTH PLAIN's and AUTH LOGIN's base64. */
function passwordForms(user: string, password: string): string[] {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  return [password, b64(password), b64(`\0${user}\0${password}`), b64(`${user}\0${user}\0${password}`)];
}

describe('a login against a server that offers no STARTTLS', () => {
  let folder = '';
  let sink: SmtpSink | undefined;
  before(async () => {
    folder = await makeMailFolder();
    sink = await startSmtpSink({ folder });
  });
  after(async () => {
    await sink?.close();
    await removeFolder(folder);
  });

  test(
    'is refused before AUTH with one line naming smtp_allow_plaintext_auth; ' + 'the password never crosses the wire',
    async () => {
      const password = 'wire-secret-5f1c';
      const lines: string[] = [];
      const debugLog = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
      const mailer = createMailer({ ...smtpSettings(sink!.port), smtpPassword: password }, debugLog);
      const outbox = new MemoryOutbox();
      outbox.add(alertMessage(11), '2026-03-01T08:00:00.000Z');
      try {
        await assert.rejects(mailer.send(alertMessage(12)), (err: unknown) => {
          assert.ok(err instanceof PlaintextAuthRefusedError);
          assert.equal(
            err.message,
            `SMTP server 127.0.0.1:${sink!.port} offers no STARTTLS, so the login ` +
              `(smtp_user) would cross the network in plain text and was not sent: ` +
              `use smtp_secure: true or a server with STARTTLS, or set ` +
              `smtp_allow_plaintext_auth: true for a relay on this host`,
          );
          return true;
        });
        assert.deepEqual(
          await deliverOutbox(outbox, mailer, { now: () => new Date('2026-03-01T08:00:00.000Z'), log: debugLog }),
          { delivered: 0, failed: 1 },
        );
      } finally {
        await mailer.close();
      }
      const pending = outbox.get(11);
      assert.equal(pending.state, 'pending');
      assert.match(
        pending.lastError ?? '',
        joined(
          /^SMTP server 127\.0\.0\.1:\d+ offers no STARTTLS, .* set /,
          /smtp_allow_plaintext_auth: true for a relay on this host$/,
        ),
      );

      const wire = await sink!.wire();
      assert.equal(wire.match(/^EHLO /gm)?.length, 2, 'both attempts reached the server');
      assert.equal(wire.match(/^STARTTLS\r$/gm)?.length, 2, 'each asked for STARTTLS');
      assert.doesNotMatch(wire, /^(AUTH|MAIL FROM)/m, 'no login and no message was sent');
      for (const form of passwordForms('qpswatch', password)) {
        assert.ok(
          !wire.includes(form),
          `the password (${form === password ? 'as written' : 'base64'}) is not on the wire`,
        );
        assert.ok(!lines.join('').includes(form), 'nor in a log line');
      }
      assert.deepEqual(await sink!.received(), []);
    },
  );
});

describe('a server that trickles one byte every 1.5 s', () => {
  test('a message is given up at the timeout for the whole send, not kept alive by each byte', async () => {
    const trickle = await startTrickleServer({ intervalMs: 1500 });
    const outbox = new MemoryOutbox();
    outbox.add(alertMessage(21), '2026-03-01T08:00:00.000Z');
    const mailer = createMailer({ ...smtpSettings(trickle.port), smtpUser: '', timeoutMs: 1000 }, log);
    try {
      const started = Date.now();
      const result = await deliverOutbox(outbox, mailer, { now: () => new Date('2026-03-01T08:00:00.000Z'), log });
      const elapsed = Date.now() - started;
      assert.deepEqual(result, { delivered: 0, failed: 1 });
      assert.ok(elapsed >= 900 && elapsed < 2500, `gave up after ${elapsed} ms`);
      assert.equal(
        outbox.get(21).lastError,
        `SMTP server 127.0.0.1:${trickle.port} did not take the message within ` +
          `smtp_timeout_seconds (1 s); it is tried again later`,
      );
      assert.equal(outbox.get(21).state, 'pending');
    } finally {
      await mailer.close();
      await trickle.close();
    }
  });

  test('an abort (SIGTERM) cuts the send short, and the message stays due without a counted attempt', async () => {
    const trickle = await startTrickleServer({ intervalMs: 1500 });
    const outbox = new MemoryOutbox();
    outbox.add(alertMessage(22), '2026-03-01T08:00:00.000Z');
    outbox.add(alertMessage(23), '2026-03-01T08:00:00.000Z');
    const mailer = createMailer({ ...smtpSettings(trickle.port), smtpUser: '', timeoutMs: 60_000 }, log);
    const controller = new AbortController();
    try {
      const started = Date.now();
      setTimeout(() => controller.abort(new Error('stopped by SIGTERM')), 300);
      const result = await deliverOutbox(outbox, mailer, {
        now: () => new Date('2026-03-01T08:00:00.000Z'),
        log,
        signal: controller.signal,
      });
      const elapsed = Date.now() - started;
      assert.deepEqual(result, { delivered: 0, failed: 0 });
      assert.ok(elapsed < 1500, `stopped after ${elapsed} ms`);
      for (const id of [22, 23]) assert.deepEqual([outbox.get(id).state, outbox.get(id).attempts], ['pending', 0]);
      await assert.rejects(mailer.send(alertMessage(24), controller.signal), /stopped by SIGTERM/);
    } finally {
      await mailer.close();
      await trickle.close();
    }
  });
});

describe('outbox delivery while the SMTP server is down, then up', () => {
  let folder = '';
  let sink: SmtpSink | undefined;
  before(async () => {
    folder = await makeMailFolder();
  });
  after(async () => {
    await sink?.close();
    await removeFolder(folder);
  });

  test('the message stays pending and retried later, then arrives exactly once', async () => {
    const port = await freePort();
    const outbox = new MemoryOutbox();
    const sent = alertMessage(7);
    let now = Date.parse('2026-03-01T08:00:00.000Z');
    const clock = () => new Date(now);
    outbox.add(sent, clock().toISOString());
    // No user: the mailer must not try AUTH.
    const mailer = createMailer({ ...smtpSettings(port), smtpUser: '' }, log);
    try {
      assert.deepEqual(await deliverOutbox(outbox, mailer, { now: clock, log }), { delivered: 0, failed: 1 });
      const pending = outbox.get(7);
      assert.equal(pending.state, 'pending');
      assert.equal(pending.attempts, 1);
      assert.equal(pending.lastError, `connect ECONNREFUSED 127.0.0.1:${port}`);
      assert.equal(pending.nextAttemptAt, '2026-03-01T08:00:30.000Z');

      // Not due yet: nothing is tried, even with the server up.
      sink = await startSmtpSink({ folder, port });
      now += 10_000;
      assert.deepEqual(await deliverOutbox(outbox, mailer, { now: clock, log }), { delivered: 0, failed: 0 });
      assert.equal((await sink.received()).length, 0);

      now += 21_000;
      assert.deepEqual(await deliverOutbox(outbox, mailer, { now: clock, log }), { delivered: 1, failed: 0 });
      assert.equal(outbox.get(7).state, 'sent');
      assert.match(outbox.get(7).detail ?? '', /^250 /);

      now += 3_600_000;
      assert.deepEqual(await deliverOutbox(outbox, mailer, { now: clock, log }), { delivered: 0, failed: 0 });
      const received = await sink.received();
      assert.equal(received.length, 1);
      assertSameMessage(received[0]!.parsed, sent);
      assert.equal(received[0]!.envelope.user, null);
    } finally {
      await mailer.close();
    }
  });
});

describe('the eml mailer', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp('/tmp/qpsw-eml-');
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  test('writes a file that parses back to the same message', async () => {
    const outboxDir = join(dir, 'outbox');
    const mailer = createMailer({ ...smtpSettings(25), smtpHost: '', outboxDir }, log);
    const sent = alertMessage(3);
    const path = await mailer.send(sent);
    await mailer.close();
    assert.equal(path, join(outboxDir, '3-qpswatch-mariadb-10-11-10-regressed-point-query-t1-at-0-96.eml'));
    assert.deepEqual(await readdir(outboxDir), ['3-qpswatch-mariadb-10-11-10-regressed-point-query-t1-at-0-96.eml']);
    assertSameMessage(await parseMailFile(path), sent);
  });
});

describe('a server that takes the connection and never greets', () => {
  test('the attempt fails after the timeout, kept as one line, and the message stays pending', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const outbox = new MemoryOutbox();
    outbox.add(alertMessage(9), '2026-03-01T08:00:00.000Z');
    const mailer = createMailer({ ...smtpSettings(port), timeoutMs: 300 }, log);
    try {
      const started = Date.now();
      const result = await deliverOutbox(outbox, mailer, { now: () => new Date('2026-03-01T08:00:00.000Z'), log });
      const elapsed = Date.now() - started;
      assert.deepEqual(result, { delivered: 0, failed: 1 });
      assert.ok(elapsed >= 250 && elapsed < 5000, `gave up after ${elapsed} ms`);
      assert.ok(
        outbox
          .get(9)
          .lastError?.startsWith(
            `SMTP server 127.0.0.1:${port} did not take the message within smtp_timeout_seconds (0.3 s)`,
          ),
      );
      assert.equal(outbox.get(9).state, 'pending');
    } finally {
      await mailer.close();
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
