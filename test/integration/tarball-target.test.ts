import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OPTIONS, type TargetConfig } from '../../src/config/index.js';
import { run } from '../../src/exec/index.js';
import { prepareTarget, TarballTargetError } from '../../src/session/index.js';
import { projectRoot } from '../helpers/paths.js';
import { silentLog } from '../helpers/silent-log.js';

/**
 * compare's tarball target: a .tar.gz on this host, made here from the installed MariaDB (bin/ and sbin/ links to
 * the host's mariadbd and mariadb-install-db, share/ to its share files), unpacked once under cache_dir/tarballs and
 * run from there; a wrong sha256 or a missing file is one line.
 */
let root = '';
let tarball = '';
let sha256 = '';

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'qpsw-tgt-'));
  const top = join(root, 'src', 'mariadb-10.11.99-linux-systemd-x86_64');
  for (const dir of ['bin', 'sbin', 'share', 'lib']) await mkdir(join(top, dir), { recursive: true });
  await symlink('/usr/sbin/mariadbd', join(top, 'sbin', 'mariadbd'));
  for (const tool of ['mariadb-install-db', 'my_print_defaults', 'resolveip'])
    await symlink(`/usr/bin/${tool}`, join(top, 'bin', tool));
  await symlink('/usr/share/mysql', join(top, 'share', 'mysql'));
  await symlink('/usr/lib/mysql/plugin', join(top, 'lib', 'plugin'));
  tarball = join(root, 'mariadb-host-linux-x86_64.tar.gz');
  await run({
    argv: ['tar', '-c', '-z', '-f', tarball, '-C', join(root, 'src'), 'mariadb-10.11.99-linux-systemd-x86_64'],
  });
  sha256 = createHash('sha256')
    .update(await readFile(tarball))
    .digest('hex');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a tarball target', () => {
  test('the config schema takes it, with or without sha256; a relative path or a bad sha256 is refused', () => {
    const schema = OPTIONS.targets.schema;
    assert.equal(
      schema.safeParse({
        t: { kind: 'tarball', flavor: 'mariadb', tarball: '/srv/x.tar.gz', server_profile: 'relaxed' },
      }).success,
      true,
    );
    assert.equal(
      schema.safeParse({
        t: {
          kind: 'tarball',
          flavor: 'mariadb',
          tarball: '/srv/x.tar.gz',
          sha256: 'A'.repeat(64),
          server_profile: 'relaxed',
        },
      }).success,
      true,
    );
    assert.equal(
      schema.safeParse({ t: { kind: 'tarball', flavor: 'mariadb', tarball: 'x.tar.gz', server_profile: 'relaxed' } })
        .success,
      false,
    );
    assert.equal(
      schema.safeParse({
        t: { kind: 'tarball', flavor: 'mariadb', tarball: '/srv/x.tar.gz', sha256: 'abc', server_profile: 'relaxed' },
      }).success,
      false,
    );
    assert.equal(
      schema.safeParse({ t: { kind: 'tarball', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' } })
        .success,
      false,
    );
  });

  test('unpacked once into cache_dir/tarballs, keyed by its sha256, and run from there', async () => {
    const cacheDir = join(root, 'cache');
    const target: TargetConfig = { kind: 'tarball', flavor: 'mariadb', tarball, sha256, server_profile: 'relaxed' };
    const first = await prepareTarget('host-tgz', target, join(projectRoot, 'config', 'server-profiles'), {
      cacheDir,
      log: silentLog,
    });
    const install = join(cacheDir, 'tarballs', 'builds', sha256.slice(0, 16), 'install');
    assert.equal(first.binaries.basedir, install);
    assert.equal(first.binaries.mysqld, join(install, 'sbin', 'mariadbd'));
    assert.match(first.binaries.version.text, /^\d+\.\d+\.\d+/);
    assert.deepEqual(first.ref.description, {
      kind: 'tarball',
      basedir: install,
      versionText: first.binaries.versionText,
      tarball,
      sha256,
    });
    const marker = join(cacheDir, 'tarballs', 'builds', sha256.slice(0, 16), 'install-complete.json');
    const unpackedAt = (await stat(marker)).mtimeMs;
    await prepareTarget('host-tgz', target, join(projectRoot, 'config', 'server-profiles'), {
      cacheDir,
      log: silentLog,
    });
    assert.equal((await stat(marker)).mtimeMs, unpackedAt, 'not unpacked again');
  });

  test(
    'a wrong sha256 or a missing file: one line naming the target, the file ' + 'and the fix; nothing unpacked',
    async () => {
      const cacheDir = join(root, 'cache-bad');
      const profiles = join(projectRoot, 'config', 'server-profiles');
      await assert.rejects(
        prepareTarget(
          't',
          { kind: 'tarball', flavor: 'mariadb', tarball, sha256: 'f'.repeat(64), server_profile: 'relaxed' },
          profiles,
          { cacheDir },
        ),
        (err: unknown) =>
          err instanceof TarballTargetError &&
          err.message ===
            `target 't': tarball ${tarball} has sha256 ${sha256}, the config says ` +
              `${'f'.repeat(64)}: fix sha256 in targets:, or replace the file (it was ` +
              `not unpacked)`,
      );
      await assert.rejects(
        prepareTarget(
          't',
          { kind: 'tarball', flavor: 'mariadb', tarball: join(root, 'gone.tar.gz'), server_profile: 'relaxed' },
          profiles,
          { cacheDir },
        ),
        (err: unknown) =>
          err instanceof TarballTargetError &&
          err.message === `target 't': tarball ${join(root, 'gone.tar.gz')} does not exist: fix the path in targets:`,
      );
      await assert.rejects(stat(cacheDir));
    },
  );
});
