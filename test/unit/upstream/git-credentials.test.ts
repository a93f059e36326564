import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { defaultEnv, run } from '../../../src/exec/index.js';
import { loggerOptions } from '../../../src/log/index.js';
import { gitRemote } from '../../../src/upstream/git-credentials.js';
import { listRemoteTags, RemoteCredentialsError, syncMirror } from '../../../src/upstream/index.js';
import { startAuthGitServer, type AuthGitServer } from '../../helpers/auth-git-server.js';
import { git, makeRepo, tempRoot } from './git-fixture.js';
import { joined } from '../../helpers/pattern.js';

const USER = 'deploy';
// Quotes, a percent sign and a backslash: nothing in the way the password travels may read them as syntax.
const PASSWORD = `tok"9f'8e%7d\\x`;
const SECRET = 'tok"9f';

describe('a remote with credentials: git logs in, and no command line or file holds them', () => {
  let root: string;
  let server: AuthGitServer;
  let remote: string;
  let tags: string[];

  before(async () => {
    root = await tempRoot('qpswatch-git-credentials-');
    const work = join(root, 'work');
    await makeRepo(work, [{ a: '1' }, { a: '2' }]);
    await git(work, 'tag', 'mariadb-10.11.8', 'HEAD~1');
    await git(work, 'tag', 'mariadb-10.11.9');
    tags = ['mariadb-10.11.8', 'mariadb-10.11.9'];
    await git(root, 'clone', '--quiet', '--bare', work, join(root, 'served', 'repo.git'));
    await git(join(root, 'served', 'repo.git'), 'update-server-info');
    server = await startAuthGitServer(join(root, 'served'), USER, PASSWORD, [SECRET, encodeURIComponent(PASSWORD)]);
    const port = new URL(server.base).port;
    remote = `http://${USER}:${PASSWORD.replace('%', '%25')}@127.0.0.1:${port}/repo.git`;
  });

  after(async () => {
    server.close();
    await rm(root, { recursive: true, force: true });
  });

  test('gitRemote: the bare URL for git, the user part in the environment only', () => {
    const login = gitRemote(remote);
    assert.equal(login.url, remote.replace(/\/\/.*@/, '//'));
    assert.ok(!login.configArgs.join(' ').includes(SECRET));
    assert.equal(login.env['QPSWATCH_GIT_PASSWORD'], PASSWORD);
    assert.deepEqual(gitRemote('https://github.com/MariaDB/server.git'), {
      url: 'https://github.com/MariaDB/server.git',
      configArgs: [],
      env: {},
    });
  });

  test(
    "the helper answers for the remote's own protocol and host only: a " + 'redirect elsewhere gets nothing',
    async () => {
      const login = gitRemote(remote);
      const ask = async (request: string): Promise<string> =>
        (
          await run({
            argv: [login.env['QPSWATCH_NODE']!, login.env['QPSWATCH_GIT_CREDENTIAL_HELPER']!, 'get'],
            env: { ...defaultEnv(), ...login.env },
            input: request,
          })
        ).stdout;
      const host = login.env['QPSWATCH_GIT_HOST']!;
      assert.equal(await ask(`protocol=http\nhost=${host}\n`), `username=${USER}\npassword=${PASSWORD}\n`);
      assert.equal(await ask(`protocol=http\nhost=elsewhere.example.org\n`), '');
      assert.equal(await ask(`protocol=https\nhost=${host}\n`), '');
    },
  );

  test(
    'ls-remote and a mirror fetch log in; ps, the mirror config and the log ' + 'lines never show the secret',
    async () => {
      const lines: string[] = [];
      const log = pino(loggerOptions('debug', 'json'), { write: (line: string) => lines.push(line) });
      assert.deepEqual(
        (await listRemoteTags(remote, { log })).map((t) => t.tag),
        tags,
      );
      const mirror = join(root, 'mirror.git');
      await syncMirror(remote, mirror, { log });
      assert.equal(await git(root, '--git-dir', mirror, 'tag', '--list'), tags.join('\n'));
      assert.ok(server.logins > 0, 'the server saw logged-in requests');
      assert.deepEqual(server.leaks, [], 'no command line held the secret while git ran');
      const config = readFileSync(join(mirror, 'config'), 'utf8');
      assert.ok(!config.includes(SECRET) && !config.includes(USER), config);
      assert.match(config, /url = http:\/\/127\.0\.0\.1:\d+\/repo\.git/);
      assert.ok(
        lines.length > 0 && lines.every((l) => !l.includes(SECRET) && !l.includes(encodeURIComponent(PASSWORD))),
        lines.join(''),
      );
    },
  );

  test('a token as the user name alone (https://TOKEN@host, as GitHub takes it) logs in too', async () => {
    const tokenOnly = await startAuthGitServer(join(root, 'served'), 'ghp_only7c', '', ['ghp_only7c']);
    try {
      const url = `${tokenOnly.base.replace('http://', 'http://ghp_only7c@')}repo.git`;
      assert.deepEqual(
        (await listRemoteTags(url)).map((t) => t.tag),
        tags,
      );
      assert.ok(tokenOnly.logins > 0);
      assert.deepEqual(tokenOnly.leaks, []);
    } finally {
      tokenOnly.close();
    }
  });

  test('a wrong password: a credentials error that does not show it', async () => {
    const wrong = remote.replace(':tok', ':bad-pw');
    await assert.rejects(listRemoteTags(wrong), (err: unknown) => {
      assert.ok(err instanceof RemoteCredentialsError, String(err));
      assert.ok(!err.message.includes('bad-pw') && !err.message.includes(USER), err.message);
      assert.match(
        err.message,
        joined(
          /^remote http:\/\/\*\*\*@127\.0\.0\.1:\d+\/repo\.git refused /,
          /the credentials in its URL \(.*\): check the token/,
        ),
      );
      return true;
    });
  });
});
