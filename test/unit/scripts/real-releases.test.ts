import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { upstreamVersion } from '../../../scripts/real-releases/apt-fetch.js';
import {
  parseDeb822Sources,
  parseOneLineSources,
  poolUrls,
  readHostSources,
  sourceStanzas,
  type HostSources,
} from '../../../scripts/real-releases/apt-sources.js';
import { field, parseDeb822, sha256Files } from '../../../scripts/real-releases/deb822.js';
import { progressLine } from '../../../scripts/real-releases/say.js';

const DEBIAN_SOURCES = [
  'Types: deb',
  '# http://snapshot.debian.org/archive/debian/20250520T000000Z',
  'URIs: http://deb.debian.org/debian',
  'Suites: bookworm bookworm-updates',
  'Components: main',
  'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
  '',
  'Types: deb',
  'URIs: http://deb.debian.org/debian-security',
  'Suites: bookworm-security',
  'Components: main',
  'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
  '',
  'Types: deb',
  'Enabled: no',
  'URIs: http://example.org/off',
  'Suites: bookworm',
  'Components: main',
  '',
].join('\n');

const SHA_ORIG = 'a46852c68075be7c31c7b33fee233c5b5a00c8c28117f5204d124e4f2fd56fa8';
const DSC = [
  '-----BEGIN PGP SIGNED MESSAGE-----',
  'Hash: SHA512',
  '',
  'Format: 3.0 (quilt)',
  'Source: mariadb',
  'Version: 1:10.11.18-0+deb12u1',
  'Checksums-Sha256:',
  ` ${SHA_ORIG} 114604451 mariadb_10.11.18.orig.tar.gz`,
  ` ${'b'.repeat(64)} 833 mariadb_10.11.18.orig.tar.gz.asc`,
  ` ${'c'.repeat(64)} 270392 mariadb_10.11.18-0+deb12u1.debian.tar.xz`,
  '',
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'iQIzBAEBCgAdFiEE',
  '-----END PGP SIGNATURE-----',
  '',
].join('\n');

describe('the host apt sources', () => {
  test('deb822: the enabled deb archives with their suites, components and key', () => {
    assert.deepEqual(parseDeb822Sources(DEBIAN_SOURCES), [
      {
        uris: ['http://deb.debian.org/debian'],
        suites: ['bookworm', 'bookworm-updates'],
        components: ['main'],
        signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg',
      },
      {
        uris: ['http://deb.debian.org/debian-security'],
        suites: ['bookworm-security'],
        components: ['main'],
        signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg',
      },
    ]);
  });

  test('one-line sources: deb lines with their options, deb-src and comments left out', () => {
    const text = [
      '# deb http://old.example/debian buster main',
      'deb [arch=amd64 signed-by=/k.gpg] http://m.example/debian bookworm main contrib',
      'deb-src http://m.example/debian bookworm main',
      'deb http://m.example/debian bookworm-updates main # updates',
    ].join('\n');
    assert.deepEqual(parseOneLineSources(text), [
      { uris: ['http://m.example/debian'], suites: ['bookworm'], components: ['main', 'contrib'], signedBy: '/k.gpg' },
      { uris: ['http://m.example/debian'], suites: ['bookworm-updates'], components: ['main'] },
    ]);
  });

  test('read from a folder as apt reads it: .sources and .list files only, the codename from os-release', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qpsw-apt-'));
    try {
      await mkdir(join(dir, 'sources.list.d'));
      await writeFile(join(dir, 'sources.list.d', 'debian.sources'), DEBIAN_SOURCES);
      await writeFile(join(dir, 'sources.list.d', 'other.list.disabled'), 'deb http://off.example/ x main\n');
      await writeFile(join(dir, 'os-release'), 'ID=debian\nVERSION_CODENAME=bookworm\n');
      const host = await readHostSources(dir, join(dir, 'os-release'));
      assert.equal(host.codename, 'bookworm');
      assert.deepEqual(
        host.sources.flatMap((s) => s.uris),
        ['http://deb.debian.org/debian', 'http://deb.debian.org/debian-security'],
      );
      await rm(join(dir, 'sources.list.d', 'debian.sources'));
      await assert.rejects(readHostSources(dir, join(dir, 'os-release')), /no "deb" archive in /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const host: HostSources = { codename: 'bookworm', sources: parseDeb822Sources(DEBIAN_SOURCES) };

  test('deb-src of the same archives; another codename adds its suites, security and updates included', () => {
    assert.equal(
      sourceStanzas(host, ['bullseye', 'trixie']),
      [
        'Types: deb-src',
        'URIs: http://deb.debian.org/debian',
        'Suites: bookworm bookworm-updates bullseye bullseye-updates trixie trixie-updates',
        'Components: main',
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
        '',
        'Types: deb-src',
        'URIs: http://deb.debian.org/debian-security',
        'Suites: bookworm-security bullseye-security trixie-security',
        'Components: main',
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
        '',
      ].join('\n'),
    );
  });

  test("a .dsc in each archive's pool: pool/main/m/..., pool/updates/main/... on a security archive", () => {
    assert.deepEqual(poolUrls(host, 'mariadb', 'mariadb_10.11.14-0+deb12u2.dsc'), [
      'http://deb.debian.org/debian/pool/main/m/mariadb/mariadb_10.11.14-0+deb12u2.dsc',
      'http://deb.debian.org/debian-security/pool/updates/main/m/mariadb/mariadb_10.11.14-0+deb12u2.dsc',
    ]);
    assert.match(poolUrls(host, 'libfmt', 'x.dsc')[0]!, /\/pool\/main\/libf\/libfmt\/x\.dsc$/);
  });
});

describe('deb822 and Debian versions', () => {
  test("a clearsigned .dsc: its fields and the sha256 of each file, the signature's lines left out", () => {
    const [stanza, ...rest] = parseDeb822(DSC);
    assert.equal(rest.length, 0);
    assert.equal(field(stanza!, 'version'), '1:10.11.18-0+deb12u1');
    assert.deepEqual(sha256Files(stanza!)[0], {
      sha256: SHA_ORIG,
      size: 114604451,
      name: 'mariadb_10.11.18.orig.tar.gz',
    });
    assert.equal(sha256Files(stanza!).length, 3);
  });

  test('the upstream version of a Debian version: no epoch, no revision', () => {
    assert.equal(upstreamVersion('1:10.11.18-0+deb12u1'), '10.11.18');
    assert.equal(upstreamVersion('1:10.5.23-0+deb11u1'), '10.5.23');
    assert.equal(upstreamVersion('11.8.6-1'), '11.8.6');
  });
});

test('a long step: done of total, and the time left at the rate so far', () => {
  assert.equal(
    progressLine({ done: 57.3, total: 114.6, unit: 'MB' }, 30_000),
    '57.3 of 114.6 MB (50%), about 30 s left',
  );
  assert.equal(progressLine({ done: 1, total: 100, unit: 'MB' }, 1000), '1.0 of 100.0 MB (1%)');
  assert.equal(progressLine({ done: 20, total: 100, unit: '%' }, 600_000), '20.0 of 100.0 % (20%), about 40 min left');
});
