import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSha256, installTarball, TarballUnpackError, unpackTarball } from '../../../src/compile/index.js';
import { run } from '../../../src/exec/index.js';
import { silentLog } from '../../helpers/silent-log.js';

describe('unpackTarball', () => {
  let root = '';

  /** A tiny tarball laid out like the official ones: one top folder with bin/ in it. */
  async function makeTarball(
    name: string,
    compress: '-z' | '-J',
    extra?: (src: string) => Promise<void>,
  ): Promise<string> {
    const top = name.replace(/\.tar\.(gz|xz)$/, '');
    const src = join(root, 'src', top);
    await mkdir(join(src, 'bin'), { recursive: true });
    await writeFile(join(src, 'bin', 'mysqld'), '#!/bin/sh\necho fake\n', { mode: 0o755 });
    await writeFile(join(src, 'README'), name);
    await extra?.(src);
    const file = join(root, name);
    await run({ argv: ['tar', compress, '-c', '-f', file, '-C', join(root, 'src'), top] });
    return file;
  }

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'qpsw-tar-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('unpacks into <targets>/<flavor>-<version> once', async () => {
    const tarball = await makeTarball('mariadb-10.11.9-linux-systemd-x86_64.tar.gz', '-z');
    const targets = join(root, 'targets');
    const first = await unpackTarball(tarball, targets, { log: silentLog });
    assert.deepEqual(
      { ...first, version: first.version.text },
      { basedir: join(targets, 'mariadb-10.11.9'), flavor: 'mariadb', version: '10.11.9', unpacked: true },
    );
    assert.deepEqual((await readdir(first.basedir)).sort(), ['README', 'bin']);
    const again = await unpackTarball(tarball, targets, { log: silentLog });
    assert.equal(again.unpacked, false);
    assert.equal(again.basedir, first.basedir);
  });

  test('an xz tarball of another flavor, and a folder left by an interrupted unpack is replaced', async () => {
    const tarball = await makeTarball('mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz', '-J');
    const targets = join(root, 'targets');
    const leftover = join(targets, 'mysql-8.0.36');
    await mkdir(leftover, { recursive: true });
    await writeFile(join(leftover, 'half-written'), '');
    const result = await unpackTarball(tarball, targets, { log: silentLog });
    assert.equal(result.unpacked, true);
    assert.deepEqual((await readdir(result.basedir)).sort(), ['README', 'bin']);
    assert.equal(await readFile(join(result.basedir, 'README'), 'utf8'), 'mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz');
  });

  test('no setuid or setgid bit survives the unpack, even as root; other bits stay', async () => {
    const tarball = await makeTarball('mariadb-10.11.7-linux-systemd-x86_64.tar.gz', '-z', async (src) => {
      await writeFile(join(src, 'bin', 'suid'), '', { mode: 0o755 });
      await chmod(join(src, 'bin', 'suid'), 0o6755);
      await chmod(join(src, 'bin'), 0o2755);
    });
    const { basedir } = await unpackTarball(tarball, join(root, 'targets'), { log: silentLog });
    assert.equal((await stat(join(basedir, 'bin', 'suid'))).mode & 0o7777, 0o755);
    assert.equal((await stat(join(basedir, 'bin'))).mode & 0o7777, 0o755);
    assert.equal((await stat(join(basedir, 'bin', 'mysqld'))).mode & 0o777, 0o755);
  });

  test("the install record keeps where a tarball came from, without the URL's credentials", async () => {
    const tarball = await makeTarball('mariadb-10.11.6-linux-systemd-x86_64.tar.gz', '-z');
    const installs = join(root, 'installs');
    const { paths } = await installTarball({
      root: installs,
      tarball,
      sha256: await fileSha256(tarball),
      url: 'https://deploy:tok-77@mirror.example.org/x.tar.gz',
      log: silentLog,
    });
    const marker = await readFile(paths.marker, 'utf8');
    assert.ok(!marker.includes('tok-77') && !marker.includes('deploy'), marker);
    assert.equal(
      (JSON.parse(marker) as { tarball: { url: string } }).tarball.url,
      'https://mirror.example.org/x.tar.gz',
    );
  });

  test("a file that is not a tarball is refused with tar's words, and nothing is left", async () => {
    const file = join(root, 'mariadb-10.11.8-linux-systemd-x86_64.tar.gz');
    await writeFile(file, 'not a tarball');
    const targets = join(root, 'targets');
    await assert.rejects(
      unpackTarball(file, targets, { log: silentLog }),
      (err: unknown) =>
        err instanceof TarballUnpackError && err.message.startsWith(`tarball ${file}: tar could not unpack it (`),
    );
    assert.equal(
      (await readdir(targets)).some((n) => n.includes('10.11.8')),
      false,
    );
  });
});
