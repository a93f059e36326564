import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { run } from '../../src/exec/index.js';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { startIndexServer, type IndexServer } from '../../scripts/real-releases/archive-server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { makeMailFolder, removeFolder, startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { joined } from '../helpers/pattern.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A tarball upstream end to end, on loopback: a download site laid out like archive.mariadb.org (a folder per
 * version, bintar-linux-systemd-x86_64/ with the tarball and sha256sums.txt) serves tarballs made from the demo
 * upstream's builds (10.11.3 is the slow one). `qpswatch once` discovers, downloads, verifies, unpacks into
 * builds/<key>/install, checks the slow release against the first and emails the regression. Then a corrupted
 * tarball, a wrong checksum and a download cut off half way: each one line, nothing benchmarked, nothing else lost,
 * and the cut-off one fetched and checked on the next try.
 */
let root = '';
let demo: DemoUpstream;
let site: IndexServer;
let sink: SmtpSink;
let mailFolder = '';
const installs = new Map<string, string>();

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const tarName = (version: string): string => `mariadb-${version}-linux-systemd-x86_64.tar.gz`;
const bintar = (version: string): string => join(root, 'site', `mariadb-${version}`, 'bintar-linux-systemd-x86_64');
const cli = (config: string, ...args: string[]): Promise<CliResult> =>
  runCli(['--config', join(root, config), ...args], { env: { USER: 'tester' } });
/** The lines a person reads: log lines at warn and above, as their message and error. */
const problems = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; error?: string })
    .filter((l) => l.level >= 50 && l.error !== undefined)
    .map((l) => l.error!);

/** A release tarball the way vendors make them: one top folder named like the file, bin/ and share/ in it. */
async function publish(version: string, install: string, opts: { checksum?: string } = {}): Promise<string> {
  const top = `mariadb-${version}-linux-systemd-x86_64`;
  const staging = join(root, 'staging', version);
  await cp(install, join(staging, top), { recursive: true, verbatimSymlinks: true });
  await mkdir(bintar(version), { recursive: true });
  const file = join(bintar(version), tarName(version));
  await run({ argv: ['tar', '-c', '-z', '-f', file, '-C', staging, top] });
  await rm(staging, { recursive: true, force: true });
  await writeFile(
    join(bintar(version), 'sha256sums.txt'),
    `${opts.checksum ?? (await sha256(file))}  ${tarName(version)}\n`,
  );
  await mkdir(join(root, 'site', `mariadb-${version}`, 'source'), { recursive: true });
  return file;
}

async function writeConfig(): Promise<void> {
  await writeFile(
    join(root, 'qpswatch.yaml'),
    [
      `state_dir: ${join(root, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      // New server instances before every sweep: the few pairs of a tiny suite make enough blocks.
      'instance_seconds: 0',
      // Tables of a few thousand rows need no warm-up after a restart: each block starts at once.
      'instance_warmup_seconds: 0',
      // Its regression's profile is tested by check-release.test; here it would only add time.
      'profiling: off',
      `cache_dir: ${join(root, 'cache')}`,
      `host_lock: ${join(root, 'host.lock')}`,
      'log_level: info',
      'min_free_bytes: 1000000',
      `suite: ${join(root, 'tiny.yaml')}`,
      'max_pairs: 12',
      'quiet_max_busy_percent: 100',
      'quiet_min_available_bytes: 0',
      'quiet_window_seconds: 0.2',
      'quiet_max_wait_seconds: 0',
      'retry_backoff_minutes: 0',
      'email_to: [dba@example.org]',
      'email_from: qpswatch@example.org',
      'smtp_host: 127.0.0.1',
      `smtp_port: ${sink.port}`,
      'smtp_timeout_seconds: 5',
      'test_thresholds: { update-index: 0.6, point-query: 0.6 }',
      'upstreams:',
      `  - { name: vendor, kind: tarball, index: "${site.url}", file: ` +
        `"*-linux-systemd-x86_64.tar.gz", flavor: mariadb, series: "10.11", ` +
        `server_profile: relaxed }`,
      '',
    ].join('\n'),
  );
}

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-tgz-'));
  demo = await makeDemoUpstream(join(root, 'upstream'));
  await writeFile(
    join(root, 'builder.yaml'),
    [
      `state_dir: ${join(root, 'builder')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      `cache_dir: ${join(root, 'builder-cache')}`,
      `host_lock: ${join(root, 'host.lock')}`,
      'log_level: warn',
      'min_free_bytes: 1000000',
      'upstreams:',
      `  - { name: demo, remote: ${demo.dir}, flavor: mariadb, series: ` +
        `"10.11", build_profile: demo, server_profile: relaxed }`,
      '',
    ].join('\n'),
  );
  assert.equal((await cli('builder.yaml', 'discover')).code, 0);
  for (const tag of ['mariadb-10.11.1', demo.slowTag, 'mariadb-10.11.2', 'mariadb-10.11.9']) {
    const built = await cli('builder.yaml', 'build', tag);
    assert.equal(built.code, 0, built.stderr);
    installs.set(tag, /: (\/\S+)\n$/.exec(built.stdout)![1]!);
  }
  // Pairs of 1-second runs: the slow tag's fsync at commit costs far more than the 40% margin, and the first look
  // (8 pairs) decides both tests; 2-second runs only made the two checks' sessions half a minute longer each.
  await writeFile(
    join(root, 'tiny.yaml'),
    'name: tiny\ndescription: one write and one read test\nload: { tables: 1, table_size: 2000 }\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] }\n' +
      ('tests:\n  - { name: update-index, script: oltp_update_index }\n  - { ' +
        'name: point-query, script: oltp_point_select }\n'),
  );
  await publish('10.11.1', installs.get('mariadb-10.11.1')!);
  await publish('10.11.3', installs.get(demo.slowTag)!);
  await writeFile(join(root, 'site', 'README.txt'), 'MariaDB archive (test copy)\n');
  site = await startIndexServer(join(root, 'site'));
  mailFolder = await makeMailFolder();
  sink = await startSmtpSink({ folder: mailFolder });
  await writeConfig();
});

after(async () => {
  await sink?.close();
  await site?.close();
  await rm(root, { recursive: true, force: true });
  await removeFolder(mailFolder);
});

async function sessions(): Promise<number> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(join(root, 'state')) });
  try {
    return (await store.listSessions({ limit: 100 })).length;
  } finally {
    await store.close();
  }
}

describe('a tarball upstream served on loopback', () => {
  test('once: discover, download, verify, unpack, check, and the regression emailed', async () => {
    const once = await cli('qpswatch.yaml', 'once');
    assert.equal(once.code, 0, once.stderr);
    assert.match(
      once.stdout,
      /^cycle done: 2 release\(s\) queued, 2 built, 0 build failure\(s\), 1 checked, 0 failed on the way$/m,
    );
    const logged = once.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; url?: string });
    assert.ok(
      logged.some(
        (l) =>
          l.msg === 'downloaded; sha256 verified' &&
          l.url === `${site.url}mariadb-10.11.3/bintar-linux-systemd-x86_64/${tarName('10.11.3')}`,
      ),
    );
    const sha = await sha256(join(bintar('10.11.3'), tarName('10.11.3')));
    const install = join(root, 'state', 'builds', sha.slice(0, 16));
    assert.ok(
      JSON.parse(await readFile(join(install, 'install-complete.json'), 'utf8')).tarball.sha256 === sha,
      'the marker names the verified tarball',
    );
    const mails = await sink.received();
    assert.equal(mails.length, 1);
    assert.match(
      mails[0]!.parsed.subject ?? '',
      /^qpswatch: mariadb 10\.11\.3 regressed: update-index\.t1 at 0\.\d\d of 10\.11\.1/,
    );
    // The downloads are gone; the installs stay.
    assert.deepEqual(await readdir(join(root, 'cache', 'downloads')).catch(() => []), []);
  });

  test('status shows the tarball release checked like a built one', async () => {
    const status = await cli('qpswatch.yaml', 'status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /vendor: "mariadb-10\.11\.3" against "mariadb-10\.11\.1": regression/);
  });

  test(
    'a corrupted tarball and a wrong checksum in the index: one line each, ' + 'never unpacked nor benchmarked',
    async () => {
      const corrupt = await publish('10.11.9', installs.get('mariadb-10.11.9')!);
      const bytes = await readFile(corrupt);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      await writeFile(corrupt, bytes);
      await publish('10.11.10', installs.get('mariadb-10.11.2')!, { checksum: 'e'.repeat(64) });
      const before = await sessions();
      const once = await cli('qpswatch.yaml', 'once');
      assert.equal(once.code, 1, 'nothing done and something failed: exit 1');
      assert.match(
        once.stdout,
        /^cycle done: 2 release\(s\) queued, 0 built, 0 build failure\(s\), 0 checked, 2 failed on the way$/m,
      );
      const lines = problems(once.stderr);
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(
        lines[0]!,
        new RegExp(
          `^tarball ` +
            `${site.url}mariadb-10\\.11\\.9/bintar-linux-systemd-x86_64/${tarName('10.11.9').replace(/\./g, '\\.')} ` +
            `has sha256 [0-9a-f]{64}, the index says ` +
            `${await sha256FromSums('10.11.9')}: the file was removed and never ` +
            `unpacked`,
        ),
      );
      assert.match(
        lines[1]!,
        new RegExp(
          `^tarball .*${tarName('10.11.10').replace(/\./g, '\\.')} has sha256 [0-9a-f]{64}, the index says e{64}: `,
        ),
      );
      assert.equal(await sessions(), before, 'nothing benchmarked');
      const status = await cli('qpswatch.yaml', 'status');
      assert.match(
        status.stdout,
        /vendor: "mariadb-10\.11\.3" against "mariadb-10\.11\.1": regression/,
        'the earlier check is still there',
      );
      await rm(join(root, 'site', 'mariadb-10.11.9'), { recursive: true });
      await rm(join(root, 'site', 'mariadb-10.11.10'), { recursive: true });
    },
  );

  test('a download cut off half way: one line, not benchmarked; the next try fetches and checks it', async () => {
    await publish('10.11.2', installs.get('mariadb-10.11.2')!);
    const path = `/mariadb-10.11.2/bintar-linux-systemd-x86_64/${tarName('10.11.2')}`;
    site.truncate.add(path);
    const before = await sessions();
    const cut = await cli('qpswatch.yaml', 'once');
    assert.equal(cut.code, 1, cut.stdout);
    const lines = problems(cut.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      joined(
        /^download of /,
        /http:\/\/127\.0\.0\.1:\d+\/mariadb-10\.11\.2\/.* failed: /,
        /(cut off after \d+ of \d+ bytes \(.*\)|truncated: \d+ of \d+ bytes arrived); /,
        /nothing was unpacked, it is tried again$/,
      ),
    );
    assert.equal(await sessions(), before, 'nothing benchmarked');
    site.truncate.delete(path);
    const again = await cli('qpswatch.yaml', 'once');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /, 1 built, 0 build failure\(s\), 1 checked, 0 failed on the way$/m);
  });
});

async function sha256FromSums(version: string): Promise<string> {
  return (await readFile(join(bintar(version), 'sha256sums.txt'), 'utf8')).split(/\s+/)[0]!;
}
