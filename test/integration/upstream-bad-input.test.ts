import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  describeEmptySelection,
  GitNotFoundError,
  InvalidRemoteError,
  listRemoteTags,
  NotAGitRepositoryError,
  parseUpstream,
  RemoteCredentialsError,
  RemoteError,
  RemotePathMissingError,
  RemoteUnreachableError,
  selectReleases,
  syncMirror,
} from '../../src/upstream/index.js';
import { InputError } from '../../src/errors.js';
import { git, makeRepo, tempRoot } from '../unit/upstream/git-fixture.js';
import { silentLog } from '../helpers/silent-log.js';

let root = '';

before(async () => {
  root = await tempRoot('qpsw-upstream-bad-');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every remote error is an InputError on one line that names the remote. */
function remoteError<E extends RemoteError>(type: new (...args: never[]) => E, remote: string, fix: RegExp) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
    assert.ok(err instanceof InputError);
    assert.equal(err.remote, remote);
    assert.ok(err.message.includes(remote), err.message);
    assert.doesNotMatch(err.message, /\n/);
    assert.match(err.message, fix);
    return true;
  };
}

describe('remotes that cannot be read', () => {
  test('http to a closed port: unreachable, at once', async () => {
    const remote = 'http://127.0.0.1:9/x.git';
    const started = Date.now();
    await assert.rejects(
      listRemoteTags(remote),
      remoteError(
        RemoteUnreachableError,
        remote,
        /Failed to connect to 127\.0\.0\.1 port 9.*: check the URL, the network and any proxy$/,
      ),
    );
    assert.ok(Date.now() - started < 5000);
  });

  test('git:// to a closed port: unreachable, with the errno git reports', async () => {
    const remote = 'git://127.0.0.1:1/x';
    await assert.rejects(
      listRemoteTags(remote),
      remoteError(RemoteUnreachableError, remote, /unable to connect to 127\.0\.0\.1: Connection refused\)/),
    );
  });

  test('a server that accepts and never answers: unreachable after the timeout, git stopped', async () => {
    const sockets: Socket[] = [];
    const server = await listen(createServer((s) => sockets.push(s)));
    const remote = `git://127.0.0.1:${port(server)}/x`;
    const started = Date.now();
    try {
      await assert.rejects(
        listRemoteTags(remote, { timeoutMs: 1000 }),
        remoteError(RemoteUnreachableError, remote, /\(no answer within 1 s\)/),
      );
      assert.ok(Date.now() - started < 6000, `took ${Date.now() - started} ms`);
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });

  test('an http remote that asks for a password: a credentials error, no prompt', async () => {
    const server = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
        res.end();
      }),
    );
    const remote = `http://127.0.0.1:${port(server)}/private.git`;
    try {
      await assert.rejects(
        listRemoteTags(remote),
        remoteError(
          RemoteCredentialsError,
          remote,
          /asks for credentials \(.*terminal prompts disabled\): check the URL/,
        ),
      );
    } finally {
      server.close();
    }
  });

  test('a token in an http URL never reaches the message or the error fields', async () => {
    const remote = 'http://ghp_s3cr3tT0ken@127.0.0.1:9/x.git';
    await assert.rejects(listRemoteTags(remote), (err: unknown) => {
      assert.ok(err instanceof RemoteUnreachableError);
      assert.equal(err.remote, 'http://***@127.0.0.1:9/x.git');
      assert.doesNotMatch(`${err.message} ${JSON.stringify(err)}`, /s3cr3t/);
      return true;
    });
  });

  test('a path that does not exist', async () => {
    const remote = join(root, 'no-such-repo');
    await assert.rejects(
      listRemoteTags(remote),
      remoteError(RemotePathMissingError, remote, /does not exist: fix the path/),
    );
    await assert.rejects(
      listRemoteTags(`file://${remote}`),
      remoteError(RemotePathMissingError, `file://${remote}`, /does not exist/),
    );
  });

  test('a folder that is not a git repository', async () => {
    const remote = join(root, 'plain-folder');
    await mkdir(remote);
    await writeFile(join(remote, 'README'), 'not a repository\n');
    await assert.rejects(
      listRemoteTags(remote),
      remoteError(NotAGitRepositoryError, remote, /is not a git repository: point the upstream's remote at a clone/),
    );
  });

  test('syncMirror from an unreachable remote fails the same way, and a later sync from a good one works', async () => {
    const mirrorDir = join(root, 'mirror.git');
    const bad = 'http://127.0.0.1:9/x.git';
    await assert.rejects(
      syncMirror(bad, mirrorDir, { log: silentLog }),
      remoteError(RemoteUnreachableError, bad, /unreachable/),
    );
    const good = join(root, 'good');
    await makeRepo(good, [{ VERSION: '1' }]);
    await git(good, 'tag', 'mariadb-10.11.9');
    const result = await syncMirror(good, mirrorDir, { log: silentLog });
    assert.equal(result.created, false);
    assert.match(await git(root, '--git-dir', mirrorDir, 'tag', '--list'), /^mariadb-10\.11\.9$/);
  });

  const invalid = ['', '-u', '--upload-pack=touch x', 'ext::sh -c touch% x', 'relative/path', 'fd::17'];
  for (const remote of invalid) {
    test(`remote text ${JSON.stringify(remote)} is refused before any git runs`, async () => {
      // A git that does not exist proves git never ran: the remote is judged first.
      await assert.rejects(
        listRemoteTags(remote, { git: '/nonexistent/git' }),
        (err: unknown) => err instanceof InvalidRemoteError && err.remote === remote,
      );
      await assert.rejects(
        syncMirror(remote, join(root, 'never'), { git: '/nonexistent/git', log: silentLog }),
        InvalidRemoteError,
      );
    });
  }
  test('no folder was made for a refused remote', () => {
    assert.equal(existsSync(join(root, 'never')), false);
  });
});

describe('git missing', () => {
  test('a git that is not there is an InputError that says to install it', async () => {
    await assert.rejects(listRemoteTags(root, { git: '/nonexistent/git' }), (err: unknown) => {
      assert.ok(err instanceof GitNotFoundError && err instanceof InputError);
      assert.equal(
        err.message,
        'git not found (program "/nonexistent/git"): install git (e.g. apt-get install git) or put it on PATH',
      );
      return true;
    });
  });
});

describe('a series filter that matches nothing', () => {
  test(
    'selectReleases returns [] and describeEmptySelection names the ' + 'upstream, the series and the newest tag',
    async () => {
      const repo = join(root, 'mysql-server');
      await makeRepo(repo, [{ VERSION: '8.0.39' }, { VERSION: '8.0.40' }, { VERSION: '8.4.3' }]);
      await git(repo, 'tag', 'mysql-8.0.39', 'HEAD~2');
      await git(repo, 'tag', 'mysql-8.0.40', 'HEAD~1');
      await git(repo, 'tag', 'mysql-cluster-9.1.0', 'HEAD');
      await git(repo, 'tag', 'mysql-8.4.3', 'HEAD');
      const upstream = parseUpstream({
        name: 'mysql-5.7',
        remote: repo,
        flavor: 'mysql',
        series: '5.7',
        build_profile: 'mysql-rel',
        server_profile: 'relaxed',
      });
      const tags = await listRemoteTags(repo);
      assert.deepEqual(selectReleases(upstream, tags, silentLog), []);
      assert.equal(
        describeEmptySelection(upstream, tags),
        `upstream "mysql-5.7" (mysql, series "5.7") selects no release from ${repo}: ` +
          ('the newest release tag among its 4 tags is mysql-8.4.3 (8.4.3); check ' +
            'series, include, exclude and min_version'),
      );
    },
  );
});

test('nothing was left in the temp folder but what the tests made', () => {
  assert.deepEqual(readdirSync(root).sort(), ['good', 'mirror.git', 'mysql-server', 'plain-folder']);
});

function listen<S extends Server>(server: S): Promise<S> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function port(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no port');
  return address.port;
}
