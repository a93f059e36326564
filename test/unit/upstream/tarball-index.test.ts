import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joined } from '../../helpers/pattern.js';
import {
  checksumFor,
  parseChecksums,
  parseListFile,
  parseListing,
  buildsFromSource,
  parseUpstream,
  TarballIndexError,
  UpstreamConfigError,
} from '../../../src/upstream/index.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = '0123456789abcdef'.repeat(4);
const TARBALL = {
  name: 'mariadb-bin',
  kind: 'tarball',
  index: 'https://archive.mariadb.org/',
  flavor: 'mariadb',
  series: '10.11',
  server_profile: 'relaxed',
};

function problem(input: unknown): string {
  try {
    parseUpstream(input);
  } catch (err) {
    assert.ok(err instanceof UpstreamConfigError, String(err));
    assert.doesNotMatch(err.message, /\n/);
    return err.message;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

describe('a tarball upstream in the config', () => {
  test('kind tarball: the index is where releases come from, no build profile, a file pattern', () => {
    const u = parseUpstream({ ...TARBALL, file: '*-linux-systemd-x86_64.tar.gz', min_version: '10.11.6' });
    assert.deepEqual(
      [u.kind, u.remote, u.buildProfile, u.fileGlob, u.minVersion?.text],
      ['tarball', 'https://archive.mariadb.org/', '', '*-linux-systemd-x86_64.tar.gz', '10.11.6'],
    );
    assert.equal(
      parseUpstream({ ...TARBALL, index: 'http://127.0.0.1:8080/releases.txt' }).remote,
      'http://127.0.0.1:8080/releases.txt',
    );
  });

  test('a git upstream says kind git, written or not', () => {
    const git = {
      name: 'm',
      remote: '/srv/git/server',
      flavor: 'mariadb',
      series: '10.11',
      build_profile: 'mariadb-rel',
      server_profile: 'relaxed',
    };
    assert.equal(parseUpstream(git).kind, 'git');
    assert.equal(parseUpstream({ ...git, kind: 'git' }).kind, 'git');
    assert.equal(problem({ ...git, kind: 'svn' }), 'upstream "m": kind = "svn": expected git, tarball or source');
  });

  test('bad entries: one line naming the field, the value and the fix', () => {
    assert.match(
      problem({ ...TARBALL, index: 'ftp://archive.mariadb.org/' }),
      /^upstream "mariadb-bin": index = "ftp:\/\/archive\.mariadb\.org\/": expected an http:\/\/ or https:\/\/ URL/,
    );
    assert.match(problem({ ...TARBALL, index: 'https://-oProxy/' }), /index = "https:\/\/-oProxy\/": expected an http/);
    assert.equal(
      problem({ ...TARBALL, build_profile: 'mariadb-rel' }),
      'upstream "mariadb-bin": unknown key "build_profile": the keys are ' +
        'name, kind, index, file, flavor, series, server_profile, include, ' +
        'exclude, min_version, base, budget_minutes',
    );
    assert.equal(
      problem({ ...TARBALL, index: undefined }),
      'upstream "mariadb-bin": index = (missing): expected an http:// or ' +
        'https:// URL, e.g. "https://archive.mariadb.org/"',
    );
  });
});

describe('a source upstream in the config', () => {
  const SOURCE = { ...TARBALL, name: 'mariadb-src', kind: 'source', build_profile: 'mariadb-rel' };

  test('kind source: the index, a build profile and patches, as a git upstream has', () => {
    const u = parseUpstream({ ...SOURCE, patches: ['/etc/qpswatch/patches/fix.patch'], file: 'mariadb-*.tar.gz' });
    assert.deepEqual(
      [u.kind, u.remote, u.buildProfile, u.patches, u.fileGlob],
      [
        'source',
        'https://archive.mariadb.org/',
        'mariadb-rel',
        ['/etc/qpswatch/patches/fix.patch'],
        'mariadb-*.tar.gz',
      ],
    );
    assert.equal(buildsFromSource(u), true);
    assert.equal(buildsFromSource(parseUpstream(TARBALL)), false);
  });

  test('bad entries: one line naming the field, the value and the fix', () => {
    assert.equal(
      problem({ ...SOURCE, build_profile: undefined }),
      'upstream "mariadb-src": build_profile = (missing): expected a build profile name, e.g. "mariadb-rel"',
    );
    assert.equal(
      problem({ ...SOURCE, remote: 'https://github.com/MariaDB/server.git' }),
      'upstream "mariadb-src": unknown key "remote": the keys are name, kind, index, file, flavor, series, ' +
        'build_profile, server_profile, include, exclude, min_version, base, budget_minutes, patches',
    );
    assert.match(
      problem({ ...SOURCE, patches: ['fix.patch'] }),
      /^upstream "mariadb-src": patches\[0\] = "fix\.patch": /,
    );
  });
});

describe('parseListing', () => {
  const page = 'http://127.0.0.1:8080/mariadb-10.11.9/';
  const html = [
    '<a href="?C=N;O=D">Name</a> <a href="../">Parent Directory</a>',
    '<a href="bintar-linux-systemd-x86_64/">bintar-linux-systemd-x86_64/</a>',
    "<a href='mariadb-10.11.9-linux-systemd-x86_64.tar.gz'>x</a>",
    '<A HREF=sha256sums.txt>sha256sums.txt</A>',
    '<a href="/mariadb-10.11.9/source/">absolute, inside</a>',
    '<a href="http://127.0.0.1:8080/other/">another folder</a> <a ' +
      'href="https://elsewhere.example/x.tar.gz">elsewhere</a>',
    '<a href="a/b/c.tar.gz">deeper</a> <a ' +
      'href="%24%28touch%20x%29.tar.gz">a shell would run it</a> <a ' +
      'href="#top">anchor</a>',
  ].join('\n');

  test('direct children only, folders marked, names decoded and checked', () => {
    assert.deepEqual(parseListing(html, page), [
      { name: 'bintar-linux-systemd-x86_64', url: `${page}bintar-linux-systemd-x86_64/`, folder: true },
      {
        name: 'mariadb-10.11.9-linux-systemd-x86_64.tar.gz',
        url: `${page}mariadb-10.11.9-linux-systemd-x86_64.tar.gz`,
        folder: false,
      },
      { name: 'sha256sums.txt', url: `${page}sha256sums.txt`, folder: false },
      { name: 'source', url: `${page}source/`, folder: true },
    ]);
  });

  test('a page without links lists nothing', () => {
    assert.deepEqual(parseListing('<html><body>Forbidden</body></html>', page), []);
  });
});

describe('checksums and list files', () => {
  test('sha256sum lines (text and binary mode) and a lone .sha256', () => {
    const lines = parseChecksums(
      `# made by sha256sum\n${SHA_A}  ` +
        `mariadb-10.11.9-linux-x86_64.tar.gz\n${SHA_B.toUpperCase()} ` +
        `*mariadb-10.11.9-linux-systemd-x86_64.tar.gz\n\n`,
      'http://x/sha256sums.txt',
    );
    assert.equal(checksumFor(lines, 'mariadb-10.11.9-linux-systemd-x86_64.tar.gz'), SHA_B);
    assert.equal(checksumFor(lines, 'mariadb-10.11.9-linux-x86_64.tar.gz'), SHA_A);
    assert.equal(checksumFor(lines, 'mariadb-10.11.8-linux-x86_64.tar.gz'), undefined);
    assert.equal(checksumFor(parseChecksums(`${SHA_A}\n`, 'http://x/f.sha256'), 'anything.tar.gz'), SHA_A);
  });

  test('a line that is not a checksum is an error naming the file and the line', () => {
    assert.throws(
      () => parseChecksums(`${SHA_A}  a.tar.gz\n${SHA_A.slice(1)}  b.tar.gz\n`, 'http://x/sha256sums.txt'),
      (err: unknown) =>
        err instanceof TarballIndexError &&
        joined(
          /^tarball index http:\/\/x\/sha256sums\.txt: line 2 is not /,
          /"<sha256>  <file name>": "a{63}  b\.tar\.gz"; fix the /,
          /checksums file$/,
        ).test(err.message),
    );
  });

  test('a list file: URLs or paths beside it, each with its checksum', () => {
    const list = parseListFile(
      `${SHA_A}  ` +
        `https://cdn.example/mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz\n${SHA_B} ` +
        ` bin/mysql-8.0.37-linux-glibc2.28-x86_64.tar.xz\n`,
      'http://127.0.0.1:1/releases.txt',
    );
    assert.deepEqual(list, [
      {
        sha256: SHA_A,
        name: 'mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz',
        url: 'https://cdn.example/mysql-8.0.36-linux-glibc2.28-x86_64.tar.xz',
      },
      {
        sha256: SHA_B,
        name: 'mysql-8.0.37-linux-glibc2.28-x86_64.tar.xz',
        url: 'http://127.0.0.1:1/bin/mysql-8.0.37-linux-glibc2.28-x86_64.tar.xz',
      },
    ]);
    assert.throws(() => parseListFile(`${SHA_A}\n`, 'http://x/l.txt'), /without a URL/);
    assert.throws(() => parseListFile(`${SHA_A}  file:///etc/passwd\n`, 'http://x/l.txt'), /is not an http\(s\) URL/);
  });
});
