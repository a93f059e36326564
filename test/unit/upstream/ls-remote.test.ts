import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listRemoteTags, LsRemoteOutputError, parseLsRemote } from '../../../src/upstream/index.js';
import { commitOf, git, makeRepo, tempRoot } from './git-fixture.js';

const T = 'e2c9cde4b1e5c7a1f0e1b9a8d7c6b5a4f3e2d1c0';
const C1 = '1111111111111111111111111111111111111111';
const C2 = '2222222222222222222222222222222222222222';

describe('parseLsRemote', () => {
  test('an annotated tag takes the commit of its ^{} line; a lightweight tag its only line', () => {
    const output = [
      `${T}\trefs/tags/mariadb-10.11.9`,
      `${C1}\trefs/tags/mariadb-10.11.9^{}`,
      `${C2}\trefs/tags/mariadb-10.11.10`,
      '',
    ].join('\n');
    assert.deepEqual(parseLsRemote('r', output), [
      { tag: 'mariadb-10.11.9', commit: C1 },
      { tag: 'mariadb-10.11.10', commit: C2 },
    ]);
  });

  test('names are data: shell characters and a leading "--" come through as text', () => {
    const names = ['--upload-pack=touch${IFS}x', 'mariadb-10.11.99;rm${IFS}-rf${IFS}x', 'a`id`$(touch${IFS}/tmp/x)'];
    const output = names.map((n) => `${C1}\trefs/tags/${n}\n`).join('');
    assert.deepEqual(
      parseLsRemote('r', output).map((t) => t.tag),
      names,
    );
  });

  test('no output is no tags', () => {
    assert.deepEqual(parseLsRemote('r', ''), []);
  });

  const garbage: Array<[string, string]> = [
    ['no tab', `${C1} refs/tags/x`],
    ['not a commit id', 'hello'],
    ['a branch', `${C1}\trefs/heads/main`],
    ['39 hex digits', `${C1.slice(1)}\trefs/tags/x`],
    ['upper-case hex', `${T.toUpperCase()}\trefs/tags/x`],
    ['an empty tag name', `${C1}\trefs/tags/`],
  ];
  for (const [what, line] of garbage) {
    test(`a line that is not "<sha>\\trefs/tags/<name>" is an error: ${what}`, () => {
      assert.throws(
        () => parseLsRemote('/srv/git/x', `${C2}\trefs/tags/ok\n${line}\n`),
        (err: unknown) => err instanceof LsRemoteOutputError && err.line === line && err.remote === '/srv/git/x',
      );
    });
  }
});

describe('real git ls-remote output', () => {
  let root = '';
  let repo = '';

  before(async () => {
    root = await tempRoot('qpsw-lsremote-');
    repo = join(root, 'server');
    await makeRepo(repo, [{ VERSION: '10.11.9' }, { VERSION: '10.11.10' }, { VERSION: '10.11.11' }]);
    await git(repo, 'tag', '-a', '-m', 'release', 'mariadb-10.11.9', 'HEAD~2');
    await git(repo, 'tag', 'mariadb-10.11.10', 'HEAD~1');
    await git(repo, 'tag', '-a', '-m', 'release', 'mariadb-10.11.11', 'HEAD');
    // A tag of a tag: git peels both levels in the ^{} line.
    await git(repo, 'tag', '-a', '-m', 'nested', 'nested-tag', 'mariadb-10.11.9');
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('captured output has both lines for annotated tags, and parses to the commits git peels to', async () => {
    const output = await git(root, 'ls-remote', '--tags', '--', repo);
    const lines = output.split('\n');
    assert.equal(lines.length, 7, output);
    assert.equal(lines.filter((l) => l.endsWith('^{}')).length, 3, output);
    const parsed = parseLsRemote(repo, `${output}\n`);
    const expected = [];
    for (const tag of ['mariadb-10.11.10', 'mariadb-10.11.11', 'mariadb-10.11.9', 'nested-tag']) {
      expected.push({ tag, commit: await commitOf(repo, tag) });
    }
    assert.deepEqual(parsed, expected);
    assert.equal(
      parsed.find((t) => t.tag === 'nested-tag')?.commit,
      parsed.find((t) => t.tag === 'mariadb-10.11.9')?.commit,
    );
  });

  test('listRemoteTags gives the same list', async () => {
    const output = await git(root, 'ls-remote', '--tags', '--', repo);
    assert.deepEqual(await listRemoteTags(repo), parseLsRemote(repo, output));
  });

  test('a repository without tags has none', async () => {
    const empty = join(root, 'empty');
    await makeRepo(empty, [{ README: 'x' }]);
    assert.deepEqual(await listRemoteTags(empty), []);
  });
});
