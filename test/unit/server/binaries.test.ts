import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  parseServerVersionOutput,
  resolveServerBinaries,
  ServerBinaryMissingError,
  ServerVersionError,
} from '../../../src/server/index.js';
import type { Flavor } from '../../../src/version/index.js';

describe('parseServerVersionOutput', () => {
  const cases: Array<[string, string, boolean]> = [
    ['/usr/sbin/mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)', '10.11.19', true],
    ['mysqld  Ver 10.3.39-MariaDB for Linux on x86_64 (Source distribution)', '10.3.39', true],
    ['/usr/sbin/mysqld  Ver 8.0.36 for Linux on x86_64 (MySQL Community Server - GPL)', '8.0.36', false],
    [
      "mysqld  Ver 8.0.36-28 for Linux on x86_64 (Percona Server (GPL), Release '28', Revision '47601f19')",
      '8.0.36-28',
      false,
    ],
    ['/usr/sbin/mysqld  Ver 8.0.36-0ubuntu0.22.04.1 for Linux on x86_64 ((Ubuntu))', '8.0.36', false],
    ['mysqld  Ver 5.6.51 for Linux on x86_64 (MySQL Community Server (GPL))', '5.6.51', false],
    ['mysqld  Ver 5.6.51-91.0 for Linux on x86_64 (Percona Server (GPL), Release 91.0)', '5.6.51-91.0', false],
    // The program's path says nothing about what it is.
    ['/opt/mariadb-vs-mysql/bin/mysqld  Ver 8.0.36 for Linux on x86_64 (Source distribution)', '8.0.36', false],
    ['2026-01-01 0 [Warning] something\n/usr/sbin/mariadbd  Ver 10.11.9-MariaDB for debian-linux-gnu', '10.11.9', true],
  ];
  for (const [output, version, mariadb] of cases) {
    test(output.split('\n').at(-1)!.slice(0, 60), () => {
      const info = parseServerVersionOutput('mysqld', output);
      assert.equal(info.version.text, version);
      assert.equal(info.reportsMariadb, mariadb);
    });
  }

  test('output without a version line names the program and the output', () => {
    assert.throws(
      () => parseServerVersionOutput('/x/mysqld', 'mysqld: error while loading shared libraries: libssl.so.1.1'),
      (err: unknown) =>
        err instanceof ServerVersionError &&
        err.message.includes('/x/mysqld --version') &&
        err.message.includes('libssl.so.1.1'),
    );
  });
});

/** A fake install prefix: each program is a tiny script; mysqld prints the given version line. */
async function fakePrefix(
  t: { after: (fn: () => Promise<void>) => void },
  files: string[],
  versionLine: string,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'qpswatch-prefix-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), `#!/bin/sh\necho '${versionLine}'\n`);
    await chmod(join(dir, file), 0o755);
  }
  return dir;
}

describe('resolveServerBinaries', () => {
  const cases: Array<[string, Flavor, string[], string, string, string | undefined, string]> = [
    [
      'MySQL 8.0 prefix',
      'mysql',
      ['bin/mysqld'],
      'mysqld  Ver 8.0.36 for Linux on x86_64 (Source distribution)',
      'bin/mysqld',
      undefined,
      '8.0.36',
    ],
    [
      'MySQL 5.6 prefix with scripts/',
      'mysql',
      ['bin/mysqld', 'scripts/mysql_install_db'],
      'mysqld  Ver 5.6.51 for Linux on x86_64 (Source distribution)',
      'bin/mysqld',
      'scripts/mysql_install_db',
      '5.6.51',
    ],
    [
      'Percona 8.0 prefix',
      'percona',
      ['bin/mysqld'],
      'mysqld  Ver 8.0.36-28 for Linux on x86_64 (Source distribution)',
      'bin/mysqld',
      undefined,
      '8.0.36-28',
    ],
    [
      'MariaDB 11 prefix',
      'mariadb',
      ['bin/mariadbd', 'scripts/mariadb-install-db', 'bin/mysqld'],
      'mariadbd  Ver 11.4.1-MariaDB for Linux on x86_64 (Source distribution)',
      'bin/mariadbd',
      'scripts/mariadb-install-db',
      '11.4.1',
    ],
    [
      'MariaDB 10.3 prefix',
      'mariadb',
      ['bin/mysqld', 'scripts/mysql_install_db'],
      'mysqld  Ver 10.3.39-MariaDB for Linux on x86_64 (Source distribution)',
      'bin/mysqld',
      'scripts/mysql_install_db',
      '10.3.39',
    ],
  ];
  for (const [name, flavor, files, line, mysqld, installDb, version] of cases) {
    test(name, async (t) => {
      const dir = await fakePrefix(t, files, line);
      const found = await resolveServerBinaries(flavor, dir);
      assert.equal(found.basedir, dir);
      assert.equal(found.mysqld, join(dir, mysqld));
      assert.equal(found.installDb, installDb === undefined ? undefined : join(dir, installDb));
      assert.equal(found.version.text, version);
    });
  }

  test('the path of the server binary itself gives its prefix as basedir', async (t) => {
    const dir = await fakePrefix(
      t,
      ['sbin/mariadbd', 'bin/mariadb-install-db'],
      'mariadbd  Ver 10.11.9-MariaDB for Linux',
    );
    const found = await resolveServerBinaries('mariadb', join(dir, 'sbin/mariadbd'));
    assert.equal(found.basedir, dir);
    assert.equal(found.mysqld, join(dir, 'sbin/mariadbd'));
    assert.equal(found.installDb, join(dir, 'bin/mariadb-install-db'));
  });

  test('a missing server names every path tried and the fix', async (t) => {
    const dir = await fakePrefix(t, [], '');
    await assert.rejects(resolveServerBinaries('mysql', dir), (err: unknown) => {
      assert.ok(err instanceof ServerBinaryMissingError);
      assert.deepEqual(
        err.tried,
        ['bin/mysqld', 'sbin/mysqld', 'libexec/mysqld'].map((p) => join(dir, p)),
      );
      assert.ok(err.message.includes("install the server package or fix the target's basedir"), err.message);
      return true;
    });
  });

  test('a missing install script is as clear as a missing server', async (t) => {
    const dir = await fakePrefix(t, ['bin/mysqld'], 'mysqld  Ver 5.6.51 for Linux');
    await assert.rejects(resolveServerBinaries('mysql', dir), (err: unknown) => {
      assert.ok(err instanceof ServerBinaryMissingError);
      assert.ok(err.tried.includes(join(dir, 'scripts/mysql_install_db')));
      return true;
    });
  });

  test('a MariaDB binary given as MySQL is refused, and the other way round', async (t) => {
    const maria = await fakePrefix(
      t,
      ['bin/mysqld', 'scripts/mysql_install_db'],
      'mysqld  Ver 10.3.39-MariaDB for Linux',
    );
    await assert.rejects(
      resolveServerBinaries('mysql', maria),
      (err: unknown) => err instanceof ServerVersionError && err.message.includes("target's flavor is mysql"),
    );
    const mysql = await fakePrefix(t, ['bin/mysqld', 'scripts/mysql_install_db'], 'mysqld  Ver 8.0.36 for Linux');
    await assert.rejects(
      resolveServerBinaries('mariadb', mysql),
      (err: unknown) => err instanceof ServerVersionError && err.message.includes("target's flavor is mariadb"),
    );
  });

  test('a non-executable file does not count', async (t) => {
    const dir = await fakePrefix(t, ['bin/mysqld'], 'mysqld  Ver 8.0.36 for Linux');
    await chmod(join(dir, 'bin/mysqld'), 0o644);
    await assert.rejects(resolveServerBinaries('mysql', dir), ServerBinaryMissingError);
  });
});
