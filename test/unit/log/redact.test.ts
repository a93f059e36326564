import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import {
  addUrlForRedaction,
  loggerOptions,
  redactUrl,
  redactUrlCredentials,
  urlWithoutCredentials,
} from '../../../src/log/index.js';

describe('redactUrlCredentials', () => {
  const cases: Array<[text: string, expected: string]> = [
    ['https://user:token@github.com/MariaDB/server.git', 'https://***@github.com/MariaDB/server.git'],
    ['https://ghp_abc123@github.com/x.git', 'https://***@github.com/x.git'],
    ['http://TOKEN:x-oauth-basic@host/x.git', 'http://***@host/x.git'],
    ['HTTPS://u:p@HOST/x', 'HTTPS://***@HOST/x'],
    ['ssh://user:password@git.example.org:2222/x.git', 'ssh://user:***@git.example.org:2222/x.git'],
    ['ssh://git@github.com/x.git', 'ssh://git@github.com/x.git'],
    ['git+ssh://deploy:hunter2@host/x', 'git+ssh://deploy:***@host/x'],
    // an @ inside the password (not percent-encoded): the user part runs to the last @ before the host
    ['ssh://u:p@ss@host/x', 'ssh://u:***@host/x'],
    ['https://u:p%40ss@host/x', 'https://***@host/x'],
    // inside JSON, quotes and an argv joined by spaces
    ['{"remote":"https://a:b@h/r","x":1}', '{"remote":"https://***@h/r","x":1}'],
    ['git ls-remote --tags -- https://a:b@h/r.git failed', 'git ls-remote --tags -- https://***@h/r.git failed'],
    ['two: https://a:b@h1/x and ssh://c:d@h2/y', 'two: https://***@h1/x and ssh://c:***@h2/y'],
    // nothing to hide
    ['https://github.com/MariaDB/server.git', 'https://github.com/MariaDB/server.git'],
    ['https://host/path/user@example.org', 'https://host/path/user@example.org'],
    ['git@github.com:MariaDB/server.git', 'git@github.com:MariaDB/server.git'],
    ['mail dba@example.org about https://host/x', 'mail dba@example.org about https://host/x'],
    ['/srv/git/server.git', '/srv/git/server.git'],
    // a quote or a backslash in the password, as JSON writes it; a single quote as it is
    [JSON.stringify({ remote: 'https://bob:a"b\\c@h/r' }), '{"remote":"https://***@h/r"}'],
    ["https://bob:it's@h/r", 'https://***@h/r'],
    // a bare double quote ends a JSON string: the user part never runs on into the next field
    ['{"index":"https://host","mail":"dba@example.org"}', '{"index":"https://host","mail":"dba@example.org"}'],
  ];
  // The title shows the redacted form only: a test run's output must not hold the credentials it feeds in.
  for (const [i, [text, expected]] of cases.entries())
    test(`case ${i + 1}: ${expected}`, () => assert.equal(redactUrlCredentials(text), expected));
});

describe('a URL found by parsing, not by a pattern', () => {
  const remote = `https://bob:tok"en'x@git.example.org/server.git`;

  test('its whole user part is hidden or removed, whatever it holds', () => {
    assert.equal(redactUrl(remote), 'https://***@git.example.org/server.git');
    assert.equal(urlWithoutCredentials(remote), 'https://git.example.org/server.git');
    assert.equal(urlWithoutCredentials('https://u:p@ss@host/x?y=a@b'), 'https://host/x?y=a@b');
    assert.equal(redactUrl('ssh://deploy:pw@host/x'), 'ssh://deploy:***@host/x');
    assert.equal(urlWithoutCredentials('/srv/git/server.git'), '/srv/git/server.git');
  });

  test('once added, it is hidden by value in any text: raw, as JSON writes it, as a URL parser writes it', () => {
    addUrlForRedaction(remote);
    const texts = [`git fetch ${remote} failed`, JSON.stringify({ remote }), new URL(remote).href];
    for (const text of texts) {
      const shown = redactUrlCredentials(text);
      assert.ok(!shown.includes('tok') && shown.includes('://***@git.example.org/'), shown);
    }
  });
});

describe('every log line hides URL credentials (loggerOptions)', () => {
  const SECRET = 'tok-9f8e7d';
  const remote = `https://deploy:${SECRET}@git.example.org/server.git`;

  function capture(format: 'json' | 'pretty', journal: boolean): { log: pino.Logger; lines: string[] } {
    const lines: string[] = [];
    const log = pino(loggerOptions('debug', format, { journal }), { write: (line: string) => lines.push(line) });
    return { log, lines };
  }

  for (const journal of [false, true]) {
    test(
      `a remote in a field, a git argv, an error, a message and a ` + `binding${journal ? ' (journal prefixes)' : ''}`,
      () => {
        const { log, lines } = capture('json', journal);
        const child = log.child({ component: 'upstream', remote });
        child.error({ upstream: 'mariadb', remote, error: `git ls-remote ${remote} failed` }, 'discovery failed');
        child.debug(
          {
            argv: [
              'git',
              '-c',
              'protocol.ext.allow=never',
              'ls-remote',
              '--tags',
              '--',
              remote,
              'ssh://u:pw-9f8e7d@h/x',
            ],
          },
          'child exited',
        );
        child.warn({ err: new Error(`fatal: unable to access '${remote}'`) }, `mirror of ${remote} not synced`);
        assert.equal(lines.length, 3);
        for (const line of lines) {
          assert.ok(!line.includes(SECRET) && !line.includes('pw-9f8e7d'), line);
          assert.ok(line.includes('https://***@git.example.org/server.git'), 'the remote is still named');
          if (journal) assert.match(line, /^<[0-7]>\{/);
          JSON.parse(journal ? line.replace(/^<\d>/, '') : line);
        }
        assert.ok(lines[1]!.includes('ssh://u:***@h/x'));
      },
    );
  }

  test('secret keys stay redacted by path', () => {
    const { log, lines } = capture('json', false);
    log.info({ smtpPassword: 'pw-1', nested: { password: 'pw-2' } }, 'settings');
    assert.ok(!lines[0]!.includes('pw-1') && !lines[0]!.includes('pw-2'));
    assert.match(lines[0]!, /"smtpPassword":"\[redacted\]"/);
  });
});

describe('credentials in a query', () => {
  test('the value of a credential-named parameter is hidden, the rest of the URL kept', () => {
    assert.equal(
      redactUrlCredentials('GET https://dl.example.org/idx?v=2&token=abc123&X-Amz-Signature=ff#top failed'),
      'GET https://dl.example.org/idx?v=2&token=***&X-Amz-Signature=***#top failed',
    );
    assert.equal(redactUrl('https://u:p@h/x?api_key=k'), 'https://***@h/x?api_key=***');
    assert.equal(redactUrlCredentials('https://h/x?monkey=1&keyboard=2'), 'https://h/x?monkey=1&keyboard=2');
    // What an install record keeps of a tarball's URL: neither the user part nor the token.
    assert.equal(
      urlWithoutCredentials('https://u:p@dl.example.org/x.tar.gz?token=abc'),
      'https://dl.example.org/x.tar.gz?token=***',
    );
  });
});
