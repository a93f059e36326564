import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildKey, compilerVersion, loadBuildProfile, profileFor } from '../../src/compile/index.js';
import { defaultEnv, run } from '../../src/exec/index.js';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { parseVersion } from '../../src/version/index.js';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { startIndexServer, type IndexServer } from '../../scripts/real-releases/archive-server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { makeMailFolder, removeFolder, startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { joined } from '../helpers/pattern.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A source upstream end to end, on loopback: a site laid out like archive.mariadb.org (a folder per version, source/
 * with mariadb-X.Y.Z.tar.gz and sha256sums.txt, a bintar-* folder beside it) serves the demo upstream's tags packed as
 * source tarballs (git archive). `qpswatch once` discovers them, downloads, verifies, unpacks, patches and builds each
 * as a tag is built (the same key with the tarball's sha256 for the commit, ccache across the trees), checks the slow
 * release against the first and emails the regression; the release that does not compile is one line in status and
 * in its email, and the others go on. Then a checksum that does not match and a tarball cut short: one line each,
 * nothing built, and the cut one built and checked on the next try.
 */
let root = '';
let demo: DemoUpstream;
let site: IndexServer;
let sink: SmtpSink;
let mailFolder = '';

const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
const srcName = (version: string): string => `mariadb-${version}.tar.gz`;
const sourceDir = (version: string): string => join(root, 'site', `mariadb-${version}`, 'source');
const cli = (...args: string[]): Promise<CliResult> =>
  runCli(['--config', join(root, 'qpswatch.yaml'), ...args], { env: { USER: 'tester' } });
/** The lines a person reads: log lines at error, as their error. */
const problems = (stderr: string): string[] =>
  logLines(stderr)
    .filter((l) => l.level >= 50 && l.error !== undefined)
    .map((l) => l.error!);
const logLines = (stderr: string): Array<{ level: number; msg: string; error?: string; tag?: string }> =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; error?: string; tag?: string });

/** A tag's tree as the vendors pack a release's source: one top folder named for the release. */
async function publish(version: string, opts: { checksum?: string } = {}): Promise<string> {
  const release = demo.releases.find((r) => r.version === version)!;
  await mkdir(sourceDir(version), { recursive: true });
  const file = join(sourceDir(version), srcName(version));
  await run({
    argv: [
      'git',
      '-C',
      demo.dir,
      'archive',
      '--format=tar.gz',
      `--prefix=mariadb-${version}/`,
      '-o',
      file,
      release.commit,
    ],
  });
  await writeFile(
    join(sourceDir(version), 'sha256sums.txt'),
    `${opts.checksum ?? (await sha256(file))}  ${srcName(version)}\n`,
  );
  // The binaries beside the source: a source upstream never takes them.
  const bintar = join(root, 'site', `mariadb-${version}`, 'bintar-linux-systemd-x86_64');
  await mkdir(bintar, { recursive: true });
  await writeFile(join(bintar, `mariadb-${version}-linux-systemd-x86_64.tar.gz`), 'not this one');
  return file;
}

async function writeConfig(): Promise<void> {
  await writeFile(
    join(root, 'qpswatch.yaml'),
    [
      `state_dir: ${join(root, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      'profiling: off',
      `cache_dir: ${join(root, 'cache')}`,
      `host_lock: ${join(root, 'host.lock')}`,
      'log_level: info',
      'min_free_bytes: 1000000',
      `suite: ${join(root, 'tiny.yaml')}`,
      'max_pairs: 12',
      // A tiny suite's sweep takes seconds: each sweep is an instance block, as in the other integration tests.
      'instance_seconds: 0',
      // Tables of a few thousand rows need no warm-up after a restart: each block starts at once.
      'instance_warmup_seconds: 0',
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
      `  - { name: vendor-src, kind: source, index: "${site.url}", flavor: mariadb, series: "10.11", ` +
        `build_profile: demo, server_profile: relaxed, patches: ["${join(root, 'notes.patch')}"] }`,
      '',
    ].join('\n'),
  );
}

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-src-'));
  demo = await makeDemoUpstream(join(root, 'upstream'));
  // Pairs of 1-second runs, as in the tarball upstream's test: the slow tag's fsync at commit is caught at once.
  await writeFile(
    join(root, 'tiny.yaml'),
    'name: tiny\ndescription: one write and one read test\nload: { tables: 1, table_size: 2000 }\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] }\n' +
      ('tests:\n  - { name: update-index, script: oltp_update_index }\n  - { ' +
        'name: point-query, script: oltp_point_select }\n'),
  );
  // A patch of the upstream's, applied to each unpacked tree (no repository) before cmake.
  await writeFile(
    join(root, 'notes.patch'),
    ['--- /dev/null', '+++ b/PATCHED-BY-QPSWATCH', '@@ -0,0 +1 @@', '+applied to a source tarball', ''].join('\n'),
    { mode: 0o644 },
  );
  await publish('10.11.1');
  await publish('10.11.3');
  await publish('10.11.4');
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

async function ccacheHits(): Promise<number> {
  const stats = await run({
    argv: ['ccache', '--print-stats'],
    env: { ...defaultEnv(), CCACHE_DIR: join(root, 'cache', 'ccache') },
  });
  const count = (name: string): number => Number(new RegExp(`^${name}\\t(\\d+)$`, 'm').exec(stats.stdout)?.[1] ?? 0);
  return count('direct_cache_hit') + count('preprocessed_cache_hit');
}

describe('a source upstream served on loopback', () => {
  test('once: discover, download, verify, unpack, patch, build, check; the broken one fails alone', async () => {
    const once = await cli('once');
    assert.equal(once.code, 0, once.stderr);
    assert.match(
      once.stdout,
      /^cycle done: 3 release\(s\) queued, 2 built, 1 build failure\(s\), 1 checked, 0 failed on the way$/m,
    );
    const logged = logLines(once.stderr);
    assert.ok(
      logged.some((l) => l.msg === 'downloaded; sha256 verified'),
      'the source tarball was checked before it was unpacked',
    );
    assert.deepEqual(
      logged.filter((l) => l.msg === 'patch applied').map((l) => l.tag),
      ['mariadb-10.11.1', 'mariadb-10.11.3', 'mariadb-10.11.4'],
      "the upstream's patch applied to every unpacked tree",
    );
    // The key is a tag's, with the tarball's sha256 (its first 40 hex, as the release row keeps it) for the commit.
    const sha = await sha256(join(sourceDir('10.11.3'), srcName('10.11.3')));
    const profile = profileFor(await loadBuildProfile('demo'), { flavor: 'mariadb', version: parseVersion('10.11.3') });
    const patch = await sha256(join(root, 'notes.patch'));
    const key = buildKey({
      commit: sha.slice(0, 40),
      profile,
      compilerVersion: await compilerVersion(profile),
      patches: [patch],
    });
    const marker = JSON.parse(await readFile(join(root, 'state', 'builds', key, 'install-complete.json'), 'utf8')) as {
      profile: string;
    };
    assert.equal(marker.profile, 'demo');
    // The second tree compiled from the first one's objects: ccache's base folder is each tree's own.
    assert.ok((await ccacheHits()) > 0, 'ccache served the second source tree');
    // Downloads and trees are gone; the installs stay.
    assert.deepEqual(await readdir(join(root, 'cache', 'downloads')).catch(() => []), []);
    assert.deepEqual(await readdir(join(root, 'cache', 'worktrees')).catch(() => []), []);

    const mails = await sink.received();
    const subjects = mails.map((m) => m.parsed.subject ?? '').sort();
    assert.equal(subjects.length, 2, subjects.join('\n'));
    assert.match(subjects[0]!, /^qpswatch: could not build mariadb-10\.11\.4/);
    assert.match(subjects[1]!, /^qpswatch: mariadb 10\.11\.3 regressed: update-index\.t1 at 0\.\d\d of 10\.11\.1/);
    const failure = mails.find((m) => /could not build/.test(m.parsed.subject ?? ''))!;
    assert.match(failure.parsed.text ?? '', /expected .;. before .}. token/);
  });

  test("status: the regression, and the failed build's one line", async () => {
    const status = await cli('status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /vendor-src: "mariadb-10\.11\.3" against "mariadb-10\.11\.1": regression/);
    const failed = status.stdout.split('\n').filter((l) => l.includes('"mariadb-10.11.4"'));
    assert.equal(failed.length, 1, status.stdout);
    assert.match(
      failed[0]!,
      joined(
        /^  vendor-src  "mariadb-10\.11\.4"  failed, 1 attempt\(s\), build failed 1 time\(s\), /,
        /last error: "build failed: [^"]*error: expected .;. before .}. token \(\/tmp\/.*\/build\.log\)"$/,
      ),
    );
  });

  test('a checksum the tarball does not have: one line, never unpacked nor built', async () => {
    await publish('10.11.9', { checksum: 'e'.repeat(64) });
    const before = await sessions();
    const once = await cli('once');
    assert.equal(once.code, 1, 'nothing done and something failed: exit 1');
    assert.match(
      once.stdout,
      /^cycle done: 1 release\(s\) queued, 0 built, 0 build failure\(s\), 0 checked, 1 failed on the way$/m,
    );
    const lines = problems(once.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      new RegExp(
        `^tarball ${site.url}mariadb-10\\.11\\.9/source/mariadb-10\\.11\\.9\\.tar\\.gz has sha256 [0-9a-f]{64}, ` +
          `the index says e{64}: the file was removed and never unpacked`,
      ),
    );
    assert.equal(await sessions(), before, 'nothing benchmarked');
    assert.deepEqual(await readdir(join(root, 'cache', 'worktrees')).catch(() => []), [], 'nothing unpacked');
    await rm(join(root, 'site', 'mariadb-10.11.9'), { recursive: true });
  });

  test('a tarball cut short: one line, nothing built; the next try builds and checks it', async () => {
    await publish('10.11.2');
    const path = `/mariadb-10.11.2/source/${srcName('10.11.2')}`;
    site.truncate.add(path);
    const cut = await cli('once');
    assert.equal(cut.code, 1, cut.stdout);
    const lines = problems(cut.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      joined(
        /^download of http:\/\/127\.0\.0\.1:\d+\/mariadb-10\.11\.2\/source\/mariadb-10\.11\.2\.tar\.gz failed: /,
        /(cut off after \d+ of \d+ bytes \(.*\)|truncated: \d+ of \d+ bytes arrived); /,
        /nothing was unpacked, it is tried again$/,
      ),
    );
    site.truncate.delete(path);
    const again = await cli('once');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /, 1 built, 0 build failure\(s\), 1 checked, 0 failed on the way$/m);
  });

  test('report: the releases built from source, relative to the first, chained through their checks', async () => {
    const report = await cli('report', '--format', 'json');
    assert.equal(report.code, 0, report.stderr);
    const view = JSON.parse(report.stdout) as {
      versions: Array<{ version: string }>;
      tests: Array<{ test: string; relativeQps: Array<{ source: string } | null> }>;
    };
    assert.deepEqual(
      view.versions.map((v) => v.version),
      ['10.11.1', '10.11.2', '10.11.3'],
    );
    const updates = view.tests.find((t) => t.test === 'update-index')!;
    assert.deepEqual(
      updates.relativeQps.map((r) => r?.source),
      ['chained', 'chained', 'chained'],
    );
  });
});
