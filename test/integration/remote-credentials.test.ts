import assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startAuthGitServer, type AuthGitServer } from '../helpers/auth-git-server.js';
import { runCli } from '../helpers/cli.js';
import { git, makeRepo } from '../unit/upstream/git-fixture.js';
import { joined } from '../helpers/pattern.js';

/**
 * The done-when of issue 18's credentials, as a user meets it: `qpswatch discover` against a real git remote over
 * HTTP that needs a token (a password holding quotes), run by the installed entry point with debug logs on. While
 * git runs, no command line on the host holds the token; config check, the logs, the store and the output hold none.
 */
const USER = 'deploy';
const PASSWORD = `ghp_"S3cr'et`;
const SECRET = 'S3cr';

describe('discover with a token in the remote', () => {
  let root = '';
  let server: AuthGitServer;
  let configFile = '';

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'qpswatch-remote-token-'));
    const work = join(root, 'work');
    await makeRepo(work, [{ a: '1' }]);
    await git(work, 'tag', 'mariadb-10.11.9');
    await git(root, 'clone', '--quiet', '--bare', work, join(root, 'served', 'server.git'));
    await git(join(root, 'served', 'server.git'), 'update-server-info');
    server = await startAuthGitServer(join(root, 'served'), USER, PASSWORD, [SECRET, encodeURIComponent(PASSWORD)]);
    const remote = `${server.base.replace('http://', `http://${USER}:${PASSWORD}@`)}server.git`;
    configFile = join(root, 'qpswatch.yaml');
    // Private, as a config holding a token must be.
    writeFileSync(
      configFile,
      `state_dir: ${join(root, 'state')}\ncache_dir: ${join(root, 'cache')}\nupstreams:\n` +
        (`  - { name: mariadb, remote: '${remote.replaceAll("'", "''")}', ` +
          `flavor: mariadb, series: "10.11", build_profile: mariadb-rel, ` +
          `server_profile: relaxed }\n`),
      { mode: 0o600 },
    );
  });

  after(async () => {
    server.close();
    await rm(root, { recursive: true, force: true });
  });

  test('ps, the output, the debug log and the store hold no token; git logged in', async () => {
    const result = await runCli(['--config', configFile, '--log-level', 'debug', 'discover', '--json']);
    assert.equal(result.code, 0, result.stderr.replaceAll(SECRET, '<SECRET>'));
    assert.deepEqual(
      (JSON.parse(result.stdout) as Array<{ releases: Array<{ tag: string }> }>)[0]!.releases.map((r) => r.tag),
      ['mariadb-10.11.9'],
    );
    assert.ok(server.logins > 0, 'git logged in');
    assert.deepEqual(server.leaks, [], 'no command line held the token while git ran');
    assert.match(
      result.stderr,
      /"argv":\["git",.*"ls-remote","--tags","--","http:\/\/127\.0\.0\.1:\d+\/server\.git"\]/,
      'exec logged the argv, without credentials',
    );
    for (const text of [
      result.stdout,
      result.stderr,
      ...filesUnder(join(root, 'state')).map((f) => readFileSync(f, 'latin1')),
    ]) {
      assert.ok(
        !text.includes(SECRET) && !text.includes(encodeURIComponent(PASSWORD)),
        'no token in the output, the logs or the store',
      );
    }
  });

  test(
    'config check of the file passes and shows no token; made readable by ' + 'all, it is refused in one line',
    async () => {
      const ok = await runCli(['config', 'check', configFile]);
      assert.equal(ok.code, 0, ok.stderr);
      const shown = await runCli(['--config', configFile, 'config', 'show']);
      assert.ok(
        !shown.stdout.includes(SECRET) && shown.stdout.includes('http://***@127.0.0.1'),
        shown.stdout.replaceAll(SECRET, '<SECRET>'),
      );
      chmodSync(configFile, 0o644);
      const refused = await runCli(['config', 'check', configFile]);
      assert.equal(refused.code, 2);
      assert.ok(!refused.stderr.includes(SECRET));
      assert.match(
        refused.stderr,
        joined(
          /^qpswatch: .*upstreams\[0\] "mariadb": remote = /,
          /"http:\/\/\*\*\*@127\.0\.0\.1:\d+\/server\.git" holds /,
          /credentials, and the file is readable by every user \(mode /,
          /0644\)/,
        ),
      );
    },
  );
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}
