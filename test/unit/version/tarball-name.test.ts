import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSourceTarballName, parseTarballName, TarballNameError } from '../../../src/version/index.js';

describe('parseTarballName', () => {
  const cases: Array<[string, string, string]> = [
    ['mariadb-10.11.9-linux-systemd-x86_64.tar.gz', 'mariadb', '10.11.9'],
    ['/downloads/mariadb-10.6.16-linux-x86_64.tar.gz', 'mariadb', '10.6.16'],
    ['mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz', 'mysql', '8.0.36'],
    ['mysql-8.4.0-linux-glibc2.17-x86_64-minimal.tar.xz', 'mysql', '8.4.0'],
    ['mysql-5.7.44-linux-glibc2.12-x86_64.tar.gz', 'mysql', '5.7.44'],
    ['Percona-Server-8.0.36-28-Linux.x86_64.glibc2.35.tar.gz', 'percona', '8.0.36-28'],
    ['Percona-Server-5.6.51-91.0-Linux.x86_64.glibc2.12.tar.gz', 'percona', '5.6.51-91.0'],
  ];
  for (const [name, flavor, version] of cases) {
    test(`${name} -> ${flavor} ${version}`, () => {
      const parsed = parseTarballName(name);
      assert.equal(parsed.flavor, flavor);
      assert.equal(parsed.version.text, version);
    });
  }

  test('a name without flavor and version is refused with an example of a good one', () => {
    for (const bad of [
      'server.tar.gz',
      'mariadb-10.11-linux-x86_64.tar.gz',
      'mariadb-10.11.9.tar.gz',
      'mariadb-10.11.9-linux-x86_64.zip',
      'mongodb-7.0.1-linux-x86_64.tgz',
    ]) {
      assert.throws(
        () => parseTarballName(bad),
        (err: unknown) =>
          err instanceof TarballNameError &&
          err.message.startsWith(`tarball ${bad}: `) &&
          err.message.includes('mariadb-10.11.9-linux-systemd-x86_64.tar.gz'),
        bad,
      );
    }
  });
});

describe('parseSourceTarballName', () => {
  const cases: Array<[string, string, string]> = [
    ['mariadb-10.11.18.tar.gz', 'mariadb', '10.11.18'],
    ['/archive/mariadb-10.5.23/source/mariadb-10.5.23.tar.gz', 'mariadb', '10.5.23'],
    ['mysql-8.0.36.tar.gz', 'mysql', '8.0.36'],
    ['mysql-boost-8.0.36.tar.gz', 'mysql', '8.0.36'],
    ['percona-server-8.0.36-28.tar.gz', 'percona', '8.0.36-28'],
    ['mariadb-11.8.6.tar.xz', 'mariadb', '11.8.6'],
  ];
  for (const [name, flavor, version] of cases) {
    test(`${name} -> ${flavor} ${version}`, () => {
      const parsed = parseSourceTarballName(name);
      assert.equal(parsed.flavor, flavor);
      assert.equal(parsed.version.text, version);
    });
  }

  test("a binary tarball, Debian's orig name or another archive is not a source tarball", () => {
    for (const bad of [
      'mariadb-10.11.9-linux-systemd-x86_64.tar.gz',
      'mariadb_10.11.18.orig.tar.gz',
      'mariadb-10.11.tar.gz',
      'mariadb-10.11.9.zip',
    ]) {
      assert.throws(
        () => parseSourceTarballName(bad),
        (err: unknown) =>
          err instanceof TarballNameError &&
          err.message.startsWith(`tarball ${bad}: `) &&
          err.message.endsWith(
            'use a source tarball name such as mariadb-10.11.9.tar.gz, mysql-8.0.36.tar.gz or ' +
              'percona-server-8.0.36-28.tar.gz',
          ),
        bad,
      );
    }
  });
});
