import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, type ChildHandle } from '../../src/exec/index.js';
import {
  addWorktree,
  CommitNotInMirrorError,
  detectMovedTags,
  InvalidCommitError,
  listRemoteTags,
  MirrorFolderError,
  NotAWorktreeError,
  parseUpstream,
  removeWorktree,
  selectReleases,
  syncMirror,
  updateSubmodules,
  WorktreeFolderError,
  type RemoteTag,
} from '../../src/upstream/index.js';
import { projectRoot } from '../helpers/paths.js';
import { commitOf, git, makeRepo, tempRoot } from '../unit/upstream/git-fixture.js';
import { silentLog } from '../helpers/silent-log.js';

/**
 * Real repositories in a temp folder: tags made by git, hostile tag names made with update-ref (git refuses spaces in
 * ref names, so ${IFS} stands in for them), a bare mirror and worktrees checked out from it.
 */
let root = '';
let src = '';
let mirror = '';
let commits: string[] = [];
let token = '';
let hostile: string[] = [];
let markers: string[] = [];

function tagMap(tags: readonly RemoteTag[]): Map<string, string> {
  return new Map(tags.map((t) => [t.tag, t.commit]));
}

async function mirrorTags(): Promise<Map<string, string>> {
  const out = await git(
    root,
    '--git-dir',
    mirror,
    'for-each-ref',
    '--format=%(refname:lstrip=2)%00%(*objectname)%00%(objectname)',
    'refs/tags',
  );
  return new Map(
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const [name, peeled, direct] = l.split('\0');
        return [name!, peeled || direct!];
      }),
  );
}

before(async () => {
  root = await tempRoot('qpsw-upstream-');
  token = `qpsw-pwned-${process.pid}-${Date.now()}`;
  src = join(root, 'server');
  mirror = join(root, 'cache', 'server.git');
  commits = await makeRepo(src, [
    { VERSION: '10.11.9\n' },
    { VERSION: '10.11.10\n' },
    { VERSION: '10.11.11\n' },
    { VERSION: '10.12-dev\n' },
  ]);
  await git(src, 'tag', '-a', '-m', 'MariaDB 10.11.9', 'mariadb-10.11.9', commits[0]!);
  await git(src, 'tag', 'mariadb-10.11.10', commits[1]!);
  await git(src, 'tag', '-a', '-m', 'MariaDB 10.11.11', 'mariadb-10.11.11', commits[2]!);
  await git(src, 'tag', 'mariadb-10.11.0', commits[0]!);
  await mkdir(join(root, 'victim'));
  await writeFile(join(root, 'victim', 'keep'), 'still here\n');
  markers = [
    join(root, `${token}-dollar`),
    join(root, `${token}-backquote`),
    join(root, `${token}-semicolon`),
    join(root, `${token}-option`),
    join(tmpdir(), `${token}-tmp`),
  ];
  hostile = [
    `mariadb-10.11.98$(touch\${IFS}${markers[0]})`,
    `mariadb-10.11.97\`touch\${IFS}${markers[1]}\``,
    `mariadb-10.11.96;touch\${IFS}${markers[2]}`,
    `mariadb-10.11.99;rm\${IFS}-rf\${IFS}${join(root, 'victim')}`,
    `--upload-pack=touch\${IFS}${markers[3]}`,
    `mariadb-10.11.95$(touch\${IFS}${markers[4]})`,
    '--help',
  ];
  for (const name of hostile) await git(src, 'update-ref', `refs/tags/${name}`, commits[3]!);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('discovery on a local repository', () => {
  test(
    'listRemoteTags lists every tag, hostile names as plain text, annotated ' + 'tags peeled to their commit',
    async () => {
      const tags = tagMap(await listRemoteTags(src));
      assert.equal(tags.get('mariadb-10.11.9'), commits[0]);
      assert.equal(tags.get('mariadb-10.11.10'), commits[1]);
      assert.equal(tags.get('mariadb-10.11.11'), commits[2]);
      for (const name of hostile) assert.equal(tags.get(name), commits[3], name);
      assert.equal(tags.size, 4 + hostile.length);
    },
  );

  test('selectReleases keeps the series releases only: no preview, no hostile name', async () => {
    const upstream = parseUpstream({
      name: 'mariadb-10.11',
      remote: src,
      flavor: 'mariadb',
      series: '10.11',
      build_profile: 'demo',
      server_profile: 'relaxed',
    });
    const releases = selectReleases(upstream, await listRemoteTags(src), silentLog);
    assert.deepEqual(
      releases.map((r) => [r.tag, r.commit]),
      [
        ['mariadb-10.11.9', commits[0]],
        ['mariadb-10.11.10', commits[1]],
        ['mariadb-10.11.11', commits[2]],
      ],
    );
  });
});

describe('mirror and worktrees', () => {
  test('the first sync creates a bare mirror with every tag; the next one reuses it', async () => {
    const first = await syncMirror(src, mirror, { log: silentLog });
    assert.equal(first.created, true);
    assert.equal(first.mirrorDir, mirror);
    assert.equal(await git(root, '--git-dir', mirror, 'rev-parse', '--is-bare-repository'), 'true');
    assert.deepEqual(await mirrorTags(), tagMap(await listRemoteTags(src)));
    const second = await syncMirror(src, mirror, { log: silentLog });
    assert.equal(second.created, false);
  });

  test('addWorktree checks out the commit, detached', async () => {
    const wt = join(root, 'work', 'mariadb-10.11.10');
    const release = (await listRemoteTags(src)).find((t) => t.tag === 'mariadb-10.11.10')!;
    const worktree = await addWorktree(mirror, release.commit, wt);
    assert.deepEqual(worktree, { worktreeDir: wt, commit: commits[1] });
    assert.equal(await readFile(join(wt, 'VERSION'), 'utf8'), '10.11.10\n');
    assert.equal(await git(wt, 'rev-parse', 'HEAD'), commits[1]);
    assert.equal(await git(wt, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD');
  });

  test('a worktree left behind is replaced by the next addWorktree of the same folder', async () => {
    const wt = join(root, 'work', 'again');
    await addWorktree(mirror, commits[0]!, wt);
    await writeFile(join(wt, 'build-output.o'), 'left by a killed build');
    await addWorktree(mirror, commits[2]!, wt);
    assert.equal(await readFile(join(wt, 'VERSION'), 'utf8'), '10.11.11\n');
    assert.equal(existsSync(join(wt, 'build-output.o')), false);
  });

  test('removeWorktree removes the folder and its record; a second call is fine', async () => {
    const wt = join(root, 'work', 'gone');
    await addWorktree(mirror, commits[0]!, wt);
    await removeWorktree(mirror, wt);
    assert.equal(existsSync(wt), false);
    assert.doesNotMatch(await git(root, '--git-dir', mirror, 'worktree', 'list'), /gone/);
    await removeWorktree(mirror, wt);
  });

  test('tag names and anything but a full commit id are refused before git runs', async () => {
    const wt = join(root, 'work', 'refused');
    for (const name of [...hostile, 'mariadb-10.11.9', 'HEAD', commits[0]!.slice(0, 12), commits[0]!.toUpperCase()]) {
      await assert.rejects(
        addWorktree(mirror, name, wt),
        (err: unknown) => err instanceof InvalidCommitError && err.commit === name,
      );
    }
    assert.equal(existsSync(wt), false);
  });

  test('a commit the mirror does not hold', async () => {
    const missing = 'deadbeef'.repeat(5);
    await assert.rejects(
      addWorktree(mirror, missing, join(root, 'work', 'missing')),
      (err: unknown) => err instanceof CommitNotInMirrorError && err.commit === missing,
    );
  });

  test('a folder that is not a worktree of the mirror is never removed', async () => {
    const wt = join(root, 'work', 'someone-else');
    await mkdir(wt, { recursive: true });
    await writeFile(join(wt, 'precious'), 'x');
    await assert.rejects(
      addWorktree(mirror, commits[0]!, wt),
      (err: unknown) => err instanceof WorktreeFolderError && err.worktreeDir === wt,
    );
    assert.equal(existsSync(join(wt, 'precious')), true);
  });

  test('a mirror folder that holds something else is refused', async () => {
    const other = join(root, 'not-a-mirror');
    await mkdir(other);
    await writeFile(join(other, 'notes.txt'), 'x');
    await assert.rejects(
      syncMirror(src, other, { log: silentLog }),
      (err: unknown) => err instanceof MirrorFolderError && err.mirrorDir === other,
    );
    assert.deepEqual(readdirSync(other), ['notes.txt']);
  });

  test('a moved tag is detected, and the next sync moves it in the mirror; a deleted tag is pruned', async () => {
    const before = await listRemoteTags(src);
    await git(src, 'tag', '-f', 'mariadb-10.11.10', commits[2]!);
    await git(src, 'tag', '-d', 'mariadb-10.11.9');
    const now = await listRemoteTags(src);
    assert.deepEqual(detectMovedTags(before, now), [
      { tag: 'mariadb-10.11.10', knownCommit: commits[1], remoteCommit: commits[2] },
    ]);
    await syncMirror(src, mirror, { log: silentLog });
    const tags = await mirrorTags();
    assert.equal(tags.get('mariadb-10.11.10'), commits[2]);
    assert.equal(tags.has('mariadb-10.11.9'), false);
    assert.deepEqual(tags, tagMap(now));
  });

  test('updateSubmodules does nothing without .gitmodules', async () => {
    const wt = join(root, 'work', 'mariadb-10.11.10');
    assert.equal(await updateSubmodules(wt), false);
  });

  test(
    'updateSubmodules refuses a folder that is not a worktree (git would ' + 'climb into a parent repository)',
    async () => {
      const plain = join(src, 'not-a-worktree');
      await mkdir(plain);
      await writeFile(join(plain, '.gitmodules'), '[submodule "x"]\n\tpath = x\n\turl = /nonexistent\n');
      await assert.rejects(
        updateSubmodules(plain),
        (err: unknown) => err instanceof NotAWorktreeError && err.worktreeDir === plain,
      );
      await rm(plain, { recursive: true });
    },
  );
});

describe('a network remote (git daemon) with a submodule', () => {
  let daemon: ChildHandle | undefined;
  let port = 0;

  before(async () => {
    const served = join(root, 'served');
    await makeRepo(join(served, 'libsub.git'), [{ 'sub.txt': 'from the submodule\n' }]);
    port = await freePort();
    daemon = start({
      argv: [
        'git',
        'daemon',
        '--reuseaddr',
        '--export-all',
        `--base-path=${served}`,
        '--listen=127.0.0.1',
        `--port=${port}`,
        served,
      ],
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: root, LANG: 'C.UTF-8' },
      timeoutMs: 120_000,
    });
    await waitForDaemon(`git://127.0.0.1:${port}/libsub.git`);
    const subCommit = await git(join(served, 'libsub.git'), 'rev-parse', 'HEAD');
    // The submodule is recorded by hand (gitlink + .gitmodules), as MariaDB's libmariadb is.
    await writeFile(
      join(src, '.gitmodules'),
      `[submodule "libsub"]\n\tpath = libsub\n\turl = git://127.0.0.1:${port}/libsub.git\n`,
    );
    await git(src, 'update-index', '--add', '--cacheinfo', `160000,${subCommit},libsub`);
    await git(src, 'add', '.gitmodules');
    await git(src, 'commit', '--quiet', '-m', 'add libsub');
    await git(src, 'tag', 'mariadb-10.11.12');
    await cloneBare(src, join(served, 'server.git'));
  });

  after(async () => {
    await daemon?.stop(2000);
  });

  test('listRemoteTags and syncMirror over git://', async () => {
    const remote = `git://127.0.0.1:${port}/server.git`;
    const tags = tagMap(await listRemoteTags(remote));
    assert.equal(tags.get('mariadb-10.11.12'), await commitOf(src, 'mariadb-10.11.12'));
    const netMirror = join(root, 'cache', 'net.git');
    assert.equal((await syncMirror(remote, netMirror, { log: silentLog })).created, true);
    assert.equal(await git(root, '--git-dir', netMirror, 'config', 'remote.origin.url'), remote);
  });

  test('updateSubmodules fetches the submodule of the checked-out commit', async () => {
    const netMirror = join(root, 'cache', 'net.git');
    const wt = join(root, 'work', 'with-submodule');
    await addWorktree(netMirror, await commitOf(src, 'mariadb-10.11.12'), wt);
    assert.equal(existsSync(join(wt, 'libsub', 'sub.txt')), false);
    assert.equal(await updateSubmodules(wt), true);
    assert.equal(await readFile(join(wt, 'libsub', 'sub.txt'), 'utf8'), 'from the submodule\n');
    await removeWorktree(netMirror, wt);
    assert.equal(existsSync(wt), false);
  });
});

describe('hostile tag names ran nothing', () => {
  test(
    'no marker file exists, the victim folder is intact, nothing named ' + 'after the token outside the temp folder',
    () => {
      for (const marker of markers) assert.equal(existsSync(marker), false, marker);
      assert.equal(existsSync(join(root, 'victim', 'keep')), true);
      for (const dir of [tmpdir(), projectRoot, homedir(), process.cwd(), '/'].filter((d) => existsSync(d))) {
        assert.deepEqual(
          readdirSync(dir).filter((name) => name.includes(token)),
          [],
          dir,
        );
      }
    },
  );
});

async function cloneBare(from: string, to: string): Promise<void> {
  await git(root, 'clone', '--quiet', '--bare', '--', from, to);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForDaemon(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await listRemoteTags(url, { timeoutMs: 2000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
