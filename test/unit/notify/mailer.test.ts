import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  createMailer,
  emlFileName,
  MailSettingsError,
  subjectSlug,
  type MailSettings,
} from '../../../src/notify/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { message } from './fakes.js';

const log = silentLog;

function settings(over: Partial<MailSettings> = {}): MailSettings {
  return {
    smtpHost: '',
    smtpPort: 587,
    smtpSecure: false,
    smtpUser: '',
    smtpPassword: '',
    smtpAllowPlaintextAuth: false,
    outboxDir: '/nonexistent',
    timeoutMs: 5000,
    ...over,
  };
}

describe('subjectSlug', () => {
  const cases: Array<[string, string]> = [
    [
      'qpswatch: mariadb 10.11.3 regressed: update-index.t1 at 0.24 of 10.11.2',
      'qpswatch-mariadb-10-11-3-regressed-update-index-t1-at-0-24',
    ],
    ['a'.repeat(70), 'a'.repeat(60)],
    [`${'b'.repeat(59)} c`, 'b'.repeat(59)],
    ['../../etc/passwd', 'etc-passwd'],
    ['<b>x</b>', 'b-x-b'],
    ['', 'message'],
    ['日本語', 'message'],
  ];
  for (const [subject, slug] of cases) test(JSON.stringify(subject), () => assert.equal(subjectSlug(subject), slug));
  test('file name: id then slug', () => assert.equal(emlFileName({ id: 12, subject: 'A b' }), '12-a-b.eml'));
});

describe('createMailer', () => {
  test('no SMTP host: the eml mailer', () => assert.equal(createMailer(settings(), log).kind, 'eml'));
  test('an SMTP host: the smtp mailer', () =>
    assert.equal(createMailer(settings({ smtpHost: '127.0.0.1' }), log).kind, 'smtp'));
  test('no host and no outbox folder: a message naming the setting and the fix', () => {
    assert.throws(
      () => createMailer(settings({ outboxDir: '' }), log),
      (err: unknown) => {
        assert.ok(err instanceof MailSettingsError);
        assert.equal(err.setting, 'outboxDir');
        assert.match(err.message, /set an SMTP host or an outbox folder/);
        return true;
      },
    );
  });
  test('a port out of range is refused', () => {
    assert.throws(
      () => createMailer(settings({ smtpHost: 'mail', smtpPort: 70000 }), log),
      /smtpPort = 70000 .*between 1 and 65535/,
    );
  });
  test('the password never appears in an error', () => {
    assert.throws(
      () => createMailer(settings({ smtpHost: 'mail', smtpPassword: 'hunter2', timeoutMs: 0 }), log),
      (err: unknown) => err instanceof MailSettingsError && !err.message.includes('hunter2'),
    );
  });
});

describe('eml mailer', () => {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  test('writes one RFC 822 file per message, named by id and subject, nothing else left', async () => {
    const dir = await mkdtemp('/tmp/qpsw-eml-');
    dirs.push(dir);
    const outbox = join(dir, 'outbox');
    const mailer = createMailer(settings({ outboxDir: outbox }), log);
    const path = await mailer.send(message(5, 'Slow: <b>x</b>'));
    await mailer.send(message(5, 'Slow: <b>x</b>')); // a resend replaces the file
    await mailer.close();
    await mailer.close();
    assert.equal(path, join(outbox, '5-slow-b-x-b.eml'));
    assert.deepEqual(await readdir(outbox), ['5-slow-b-x-b.eml']);
    const raw = await readFile(path, 'utf8');
    assert.match(raw, /^Message-ID: <5@qpswatch\.test>\r$/m);
    assert.match(raw, /^Subject: Slow: <b>x<\/b>\r$/m);
    assert.match(raw, /^To: dba@example\.org\r$/m);
    assert.ok(!/[^\r]\n/.test(raw), 'every line ends with CRLF');
  });
});
