import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  discoverTarballReleases,
  downloadFile,
  locateTarball,
  parseUpstream,
  TarballChecksumError,
  TarballDownloadError,
  TarballIndexError,
  TarballNotListedError,
  type Upstream,
} from '../../../src/upstream/index.js';
import { startIndexServer, type IndexServer } from '../../../scripts/real-releases/archive-server.js';
import { silentLog } from '../../helpers/silent-log.js';
import { freePort } from '../../helpers/smtp.js';
import { joined } from '../../helpers/pattern.js';

let root = '';
let site: IndexServer;
let upstream: Upstream;
const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');
const body = (version: string): Buffer => Buffer.from(`not really a tarball of ${version}\n`.repeat(5000));
const name = (version: string): string => `mariadb-${version}-linux-systemd-x86_64.tar.gz`;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'qpsw-tarfetch-'));
  const files: Record<string, string | Buffer> = {
    // archive.mariadb.org: a folder per version, the tarball in bintar-*/ with a sha256sums.txt beside it.
    [`mariadb-10.11.1/bintar-linux-systemd-x86_64/${name('10.11.1')}`]: body('10.11.1'),
    [`mariadb-10.11.1/bintar-linux-systemd-x86_64/sha256sums.txt`]: `${sha(body('10.11.1'))}  ${name('10.11.1')}\n`,
    [`mariadb-10.11.1/bintar-linux-x86_64/mariadb-10.11.1-linux-x86_64.tar.gz`]: 'the other variant',
    [`mariadb-10.11.1/source/mariadb-10.11.1.tar.gz`]: 'source',
    // The tarball in the version folder, with a .sha256 beside it.
    [`mariadb-10.11.2/${name('10.11.2')}`]: body('10.11.2'),
    [`mariadb-10.11.2/${name('10.11.2')}.sha256`]: `${sha(body('10.11.2'))}  ${name('10.11.2')}\n`,
    // No checksum at all: never used.
    [`mariadb-10.11.3/bintar-linux-systemd-x86_64/${name('10.11.3')}`]: body('10.11.3'),
    [`mariadb-10.11.0/${name('10.11.0')}`]: 'a preview',
    [`mariadb-11.4.1/${name('11.4.1')}`]: 'another series',
    'README.txt': 'hello',
  };
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, 'site', path, '..'), { recursive: true });
    await writeFile(join(root, 'site', path), content);
  }
  site = await startIndexServer(join(root, 'site'));
  upstream = parseUpstream({
    name: 'bin',
    kind: 'tarball',
    index: site.url,
    file: '*-linux-systemd-x86_64.tar.gz',
    flavor: 'mariadb',
    series: '10.11',
    server_profile: 'relaxed',
  });
});

after(async () => {
  await site.close();
  await rm(root, { recursive: true, force: true });
});

describe('a folder listing like archive.mariadb.org', () => {
  test("discovery selects by series and finds each new release's checksum; one without is left out", async () => {
    const { releases, tags } = await discoverTarballReleases(upstream, new Map(), { log: silentLog });
    assert.deepEqual(tags.map((t) => t.tag).sort(), [
      'mariadb-10.11.0',
      'mariadb-10.11.1',
      'mariadb-10.11.2',
      'mariadb-10.11.3',
      'mariadb-11.4.1',
    ]);
    assert.deepEqual(
      releases.map((r) => [r.tag, r.commit]),
      [
        ['mariadb-10.11.1', sha(body('10.11.1')).slice(0, 40)],
        ['mariadb-10.11.2', sha(body('10.11.2')).slice(0, 40)],
      ],
    );
  });

  test('releases the store knows are not looked up again: one request for the index page', async () => {
    const known = new Map([
      ['mariadb-10.11.1', 'b'.repeat(40)],
      ['mariadb-10.11.2', 'c'.repeat(40)],
      ['mariadb-10.11.3', 'd'.repeat(40)],
    ]);
    const before = site.requests.length;
    const { releases } = await discoverTarballReleases(upstream, known, { log: silentLog });
    assert.deepEqual(
      releases.map((r) => r.commit),
      ['b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)],
    );
    assert.deepEqual(site.requests.slice(before), ['/']);
  });

  test('locate gives the URL and the whole checksum; a release without one is refused in one line', async () => {
    const file = await locateTarball(upstream, 'mariadb-10.11.1', { log: silentLog });
    assert.deepEqual(file, {
      tag: 'mariadb-10.11.1',
      url: `${site.url}mariadb-10.11.1/bintar-linux-systemd-x86_64/${name('10.11.1')}`,
      fileName: name('10.11.1'),
      sha256: sha(body('10.11.1')),
    });
    await assert.rejects(
      locateTarball(upstream, 'mariadb-10.11.3', { log: silentLog }),
      (err: unknown) =>
        err instanceof TarballNotListedError &&
        /release "mariadb-10\.11\.3" has no sha256 in the index \(.*\): it is never downloaded without one$/.test(
          err.message,
        ),
    );
    await assert.rejects(locateTarball(upstream, 'mariadb-10.11.7', { log: silentLog }), TarballNotListedError);
  });

  test('an index that answers 404, or nothing, is one line naming the URL', async () => {
    const missing = parseUpstream({
      ...{ name: 'bin', kind: 'tarball', flavor: 'mariadb', series: '10.11', server_profile: 'relaxed' },
      index: `${site.url}no-such-folder/`,
    });
    await assert.rejects(
      discoverTarballReleases(missing, new Map(), { log: silentLog }),
      (err: unknown) =>
        err instanceof TarballIndexError &&
        err.message === `tarball index ${site.url}no-such-folder/: answered HTTP 404 Not Found: check the URL`,
    );
    const port = await freePort();
    const closed = parseUpstream({
      name: 'bin',
      kind: 'tarball',
      flavor: 'mariadb',
      series: '10.11',
      server_profile: 'relaxed',
      index: `http://user:hunter2@127.0.0.1:${port}/`,
    });
    await assert.rejects(
      discoverTarballReleases(closed, new Map(), { log: silentLog }),
      (err: unknown) =>
        err instanceof TarballIndexError &&
        err.message.startsWith(`tarball index http://***@127.0.0.1:${port}/: not reachable (ECONNREFUSED`) &&
        !err.message.includes('hunter2'),
    );
  });
});

describe('a list file of checksums and URLs', () => {
  test('its lines are the releases, paths beside it resolved', async () => {
    await writeFile(
      join(root, 'site', 'releases.txt'),
      `${sha(body('10.11.2'))}  ` +
        `mariadb-10.11.2/${name('10.11.2')}\n${'e'.repeat(64)}  ` +
        `${site.url}mariadb-11.4.1/${name('11.4.1')}\n`,
    );
    const list = parseUpstream({
      name: 'list',
      kind: 'tarball',
      index: `${site.url}releases.txt`,
      flavor: 'mariadb',
      series: '10.11',
      server_profile: 'relaxed',
    });
    const { releases } = await discoverTarballReleases(list, new Map(), { log: silentLog });
    assert.deepEqual(
      releases.map((r) => r.tag),
      ['mariadb-10.11.2'],
    );
    assert.equal(
      (await locateTarball(list, 'mariadb-10.11.2', { log: silentLog })).url,
      `${site.url}mariadb-10.11.2/${name('10.11.2')}`,
    );
  });
});

describe('downloadFile', () => {
  const url = (v: string): string =>
    `${site.url}mariadb-${v}/${v === '10.11.2' ? '' : 'bintar-linux-systemd-x86_64/'}${name(v)}`;

  test('the whole file, its checksum verified, renamed into place', async () => {
    const dest = join(root, 'dl', 'ok', name('10.11.2'));
    const got = await downloadFile(url('10.11.2'), dest, {
      sha256: sha(body('10.11.2')),
      log: silentLog,
      progressEveryMs: 0,
    });
    assert.equal(got.bytes, body('10.11.2').length);
    assert.deepEqual(await readFile(dest), body('10.11.2'));
    assert.deepEqual(await readdir(join(root, 'dl', 'ok')), [name('10.11.2')]);
  });

  test('another checksum: one line with both, nothing left', async () => {
    const dest = join(root, 'dl', 'bad', name('10.11.1'));
    await assert.rejects(
      downloadFile(url('10.11.1'), dest, { sha256: 'f'.repeat(64), log: silentLog }),
      (err: unknown) =>
        err instanceof TarballChecksumError &&
        !err.message.includes('\n') &&
        err.message.includes(`has sha256 ${sha(body('10.11.1'))}, the index says ${'f'.repeat(64)}`),
    );
    assert.deepEqual(await readdir(join(root, 'dl', 'bad')), []);
  });

  test('cut off half way: one line with the bytes that came, nothing left', async () => {
    const path = new URL(url('10.11.1')).pathname;
    site.truncate.add(path);
    try {
      const dest = join(root, 'dl', 'cut', name('10.11.1'));
      await assert.rejects(
        downloadFile(url('10.11.1'), dest, { sha256: sha(body('10.11.1')), log: silentLog }),
        (err: unknown) =>
          err instanceof TarballDownloadError &&
          joined(
            /^download of .* failed: /,
            /(cut off after \d+ of \d+ bytes \(.*\)|truncated: \d+ of \d+ bytes arrived); /,
            /nothing was unpacked, it is tried again$/,
          ).test(err.message),
      );
      assert.deepEqual(await readdir(join(root, 'dl', 'cut')), []);
    } finally {
      site.truncate.delete(path);
    }
  });

  test('an HTTP error and a size over the limit are refused before anything is written', async () => {
    await assert.rejects(
      downloadFile(`${site.url}nothing.tar.gz`, join(root, 'dl', 'x', 'n.tar.gz'), {
        sha256: 'f'.repeat(64),
        log: silentLog,
      }),
      /failed: the server answered HTTP 404 Not Found;/,
    );
    await assert.rejects(
      downloadFile(url('10.11.2'), join(root, 'dl', 'x', 'big.tar.gz'), {
        sha256: 'f'.repeat(64),
        maxBytes: 1000,
        log: silentLog,
      }),
      /failed: it is \d+ bytes, over the limit of 1000;/,
    );
    assert.deepEqual(await readdir(join(root, 'dl', 'x')), []);
  });
});
