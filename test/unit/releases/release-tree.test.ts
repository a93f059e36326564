import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { run } from '../../../src/exec/index.js';
import { releaseTree } from '../../../src/releases/release-tree.js';
import type { ReleaseRecord } from '../../../src/store/index.js';
import { parseUpstream, TarballChangedError, type Upstream } from '../../../src/upstream/index.js';
import { startIndexServer, type IndexServer } from '../../../scripts/real-releases/archive-server.js';
import { silentLog } from '../../helpers/silent-log.js';

/** A source release's tree: located in a real index on loopback, downloaded, checked, unpacked, the download gone. */
let root = '';
let site: IndexServer;
let upstream: Upstream;
let sha = '';

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'qpsw-tree-'));
  const src = join(root, 'staging', 'mariadb-10.11.9');
  await mkdir(join(src, 'sql'), { recursive: true });
  await writeFile(join(src, 'CMakeLists.txt'), 'project(x C)\n');
  await writeFile(join(src, 'sql', 'handler.cc'), '// the handler\n');
  const folder = join(root, 'site', 'mariadb-10.11.9', 'source');
  await mkdir(folder, { recursive: true });
  const file = join(folder, 'mariadb-10.11.9.tar.gz');
  await run({ argv: ['tar', '-c', '-z', '-f', file, '-C', join(root, 'staging'), 'mariadb-10.11.9'] });
  sha = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  await writeFile(join(folder, 'sha256sums.txt'), `${sha}  mariadb-10.11.9.tar.gz\n`);
  site = await startIndexServer(join(root, 'site'));
  upstream = parseUpstream({
    name: 'src',
    kind: 'source',
    index: site.url,
    flavor: 'mariadb',
    series: '10.11',
    build_profile: 'mariadb-rel',
    server_profile: 'relaxed',
  });
});

after(async () => {
  await site.close();
  await rm(root, { recursive: true, force: true });
});

const release = (commit: string): ReleaseRecord =>
  ({ id: 1, upstream: 'src', tag: 'mariadb-10.11.9', commit, version: '10.11.9' }) as ReleaseRecord;
const deps = () => ({
  cacheDir: join(root, 'cache'),
  stateDir: root,
  minFreeBytes: 0,
  signal: new AbortController().signal,
  log: silentLog,
});

describe('the tree of a source release', () => {
  test('unpacked without its top folder into the key folder; the download is removed', async () => {
    const dir = join(root, 'cache', 'worktrees', 'k1');
    const tree = releaseTree(release(sha.slice(0, 40)), upstream, deps());
    await tree.checkout(dir);
    assert.deepEqual((await readdir(dir)).sort(), ['CMakeLists.txt', 'sql']);
    assert.equal(await readFile(join(dir, 'sql', 'handler.cc'), 'utf8'), '// the handler\n');
    assert.deepEqual(await readdir(join(root, 'cache', 'downloads')), []);
    await tree.remove(dir);
    assert.deepEqual(await readdir(join(root, 'cache', 'worktrees')), []);
  });

  test('an index that now gives another sha256 than discovery saw: refused in one line, nothing fetched', async () => {
    const dir = join(root, 'cache', 'worktrees', 'k2');
    const before = site.requests.length;
    await assert.rejects(releaseTree(release('f'.repeat(40)), upstream, deps()).checkout(dir), (err: unknown) => {
      assert.ok(err instanceof TarballChangedError, String(err));
      assert.match(
        err.message,
        new RegExp(
          `^release "mariadb-10\\.11\\.9": the index now gives ${site.url}mariadb-10\\.11\\.9/source/` +
            `mariadb-10\\.11\\.9\\.tar\\.gz the sha256 ${sha}, not the one discovery saw \\(f{40}\\.\\.\\.\\): `,
        ),
      );
      return true;
    });
    assert.ok(
      site.requests.slice(before).every((p) => !p.endsWith('.tar.gz')),
      'the tarball itself was never downloaded',
    );
    assert.deepEqual(await readdir(join(root, 'cache', 'worktrees')), []);
  });
});
