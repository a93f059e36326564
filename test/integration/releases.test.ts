import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { run } from '../../src/exec/index.js';
import type { ComparisonView } from '../../src/model/index.js';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { messageLines, runCli, type CliResult } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * Watching upstream and building every release, as a user runs it: the demo upstream (a real git repository whose
 * tags build with cmake in seconds), `qpswatch discover`, `qpswatch build TAG` and `qpswatch compare TAG TAG`.
 */
const root = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-releases-')));
const stateDir = join(root, 'state');
const cacheDir = join(root, 'cache');
const configFile = join(root, 'qpswatch.yaml');
let demo: DemoUpstream;

function writeConfig(file: string, upstreams: string, extra = '', minFreeBytes = 1_000_000): string {
  writeFileSync(
    file,
    `state_dir: ${stateDir}\nserver_profiles_dir: ${testServerProfilesDir()}\ncache_dir: ${cacheDir}\nlog_level: ` +
      `warn\nmin_free_bytes: ${minFreeBytes}\n${extra}upstreams:\n${upstreams}`,
  );
  return file;
}

function demoUpstream(name = 'demo', series = '10.11', buildProfile = 'demo'): string {
  return (
    `  - { name: ${name}, remote: ${demo.dir}, flavor: mariadb, series: ` +
    `"${series}", build_profile: ${buildProfile}, server_profile: relaxed }\n`
  );
}

const cli = (...args: string[]): Promise<CliResult> => runCli(['--config', configFile, ...args]);

/** Every file name under a folder, recursively (to look for what a hostile tag would have created). */
function allNames(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

before(async () => {
  demo = await makeDemoUpstream(join(root, 'upstream'));
  // The compare below is 2 whole-run rounds, whose smallest p-value is 1/6: alpha 0.2 lets it start.
  writeConfig(configFile, demoUpstream(), 'alpha: 0.2\n');
});

after(() => rmSync(root, { recursive: true, force: true }));

describe('releases of the demo upstream', () => {
  test(
    'discover lists the series in version order, every release new; hostile ' + 'and non-release tags are skipped',
    async () => {
      const result = await cli('discover', '--json');
      assert.equal(result.code, 0, result.stderr);
      const [listing] = JSON.parse(result.stdout) as Array<{
        upstream: string;
        releases: Array<{ tag: string; state: string }>;
      }>;
      assert.deepEqual(
        listing!.releases.map((r) => r.tag),
        [
          'mariadb-10.11.1',
          'mariadb-10.11.2',
          'mariadb-10.11.3',
          'mariadb-10.11.4',
          'mariadb-10.11.9',
          'mariadb-10.11.10',
        ],
      );
      assert.ok(listing!.releases.every((r) => r.state === 'new'));
    },
  );

  test('a tag added later is the only new one', async () => {
    const git = (...args: string[]) =>
      run({
        argv: ['git', '-C', demo.dir, ...args],
        env: {
          PATH: process.env['PATH']!,
          HOME: root,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      });
    const head = (await git('rev-parse', 'mariadb-10.11.10^{commit}')).stdout.trim();
    await git('tag', '-a', '-m', 'a later release', 'mariadb-10.11.11', head);
    const result = await runCli(['--config', configFile, '--log-level', 'info', 'discover', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const added = result.stderr.split('\n').filter((l) => l.includes('"new release"'));
    assert.equal(added.length, 1, added.join('\n'));
    assert.match(added[0]!, /mariadb-10\.11\.11/);
  });

  test('build installs a release once; the same key again does nothing and says so', async () => {
    const first = await cli('build', 'mariadb-10.11.1');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^built "mariadb-10\.11\.1" in [\d.]+ s: .*\/builds\/[0-9a-f]{16}\/install\n$/);
    const again = await cli('build', 'mariadb-10.11.1');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /"mariadb-10\.11\.1" is built already \(key [0-9a-f]{16}\)/);
  });

  test('the failing tag is recorded with its compiler error and not built again without --retry', async () => {
    const first = await cli('build', 'mariadb-10.11.4');
    assert.equal(first.code, 1);
    assert.match(first.stdout, /build of "mariadb-10\.11\.4" failed; log .*build\.log\n(.*\n)*.*expected/);
    const again = await cli('build', 'mariadb-10.11.4');
    assert.equal(again.code, 1);
    assert.match(again.stdout, /failed before and was not retried \(--retry\)/);
    const listing = await cli('discover');
    assert.match(listing.stdout, /"mariadb-10\.11\.4"\s+10\.11\.4\s+[0-9a-f]{12}\s+build failed/);
    assert.match(listing.stdout, /"mariadb-10\.11\.1"\s+10\.11\.1\s+[0-9a-f]{12}\s+built/);
  });

  test('compare of two built releases shows the slow tag on the write test', async () => {
    assert.equal((await cli('build', demo.slowTag)).code, 0);
    const suite = join(root, 'tiny.yaml');
    writeFileSync(
      suite,
      'name: tiny\ndescription: one write and one read test\nload: { tables: 1, table_size: 2000 }\n' +
        'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 2, threads: [1] }\n' +
        ('tests:\n  - { name: update-index, script: oltp_update_index }\n  - { ' +
          'name: point-query, script: oltp_point_select }\n'),
    );
    const result = await cli(
      'compare',
      '--baseline',
      'mariadb-10.11.1',
      '--candidate',
      demo.slowTag,
      '--suite',
      suite,
      '--rounds',
      '2',
      '--format',
      'json',
    );
    assert.equal(result.code, 0, result.stderr);
    const view = JSON.parse(result.stdout) as ComparisonView;
    assert.equal(view.candidate.version, '10.11.3');
    const update = view.tests.find((t) => t.test === 'update-index')!;
    assert.ok(update.relativeQps < 0.8, `update-index relative QPS ${update.relativeQps}`);
    assert.ok(update.candidate.perOp.writeKBPerOp > update.baseline.perOp.writeKBPerOp, 'wKB/o grew');
  });

  test('hostile tag names never reached a shell and nothing was written outside the state and cache folders', () => {
    // Ref files in the mirror carry the hostile names; only a file named exactly like the marker means a shell ran one.
    assert.deepEqual(
      allNames(root).filter((n) => basename(n) === demo.hostileMarker),
      [],
    );
    for (const dir of [projectRoot, tmpdir(), stateDir, '/'])
      assert.ok(!existsSync(join(dir, demo.hostileMarker)), `${demo.hostileMarker} in ${dir}`);
    const topLevel = readdirSync(root).sort();
    assert.deepEqual(topLevel, ['cache', 'qpswatch.yaml', 'state', 'tiny.yaml', 'upstream']);
  });
});

describe('bad input around upstreams', () => {
  test(
    'an unreachable remote and a folder that is not a git repository: one ' + 'line each, the good upstream goes on',
    async () => {
      const file = writeConfig(
        join(root, 'mixed.yaml'),
        `  - { name: dead, remote: "git://127.0.0.1:1/server.git", flavor: ` +
          `mariadb, series: "10.11", build_profile: demo, server_profile: relaxed ` +
          `}\n` +
          (`  - { name: plain, remote: ${root}, flavor: mariadb, series: "10.11", ` +
            `build_profile: demo, server_profile: relaxed }\n`) +
          demoUpstream(),
      );
      const result = await runCli(['--config', file, 'discover']);
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^dead: discovery failed: .*127\.0\.0\.1:1.*$/m);
      assert.match(result.stdout, /^plain: discovery failed: .*not a git repository.*$/m);
      assert.match(result.stdout, /^demo\n {2}"mariadb-10\.11\.1"/m);
      rmSync(file);
    },
  );

  test('a series that matches nothing says so in one line', async () => {
    const file = writeConfig(join(root, 'empty.yaml'), demoUpstream('demo-12', '12.0'));
    const result = await runCli(['--config', file, 'discover']);
    assert.equal(result.code, 0, result.stderr);
    const warning = result.stderr.split('\n').find((l) => l.includes('"upstream":"demo-12"'));
    assert.match(warning ?? '', /12\.0/);
    assert.match(result.stdout, /demo-12\n {2}\(no releases\)/);
    rmSync(file);
  });

  test('a build profile with an unknown cmake generator: one line naming it and the valid ones', async () => {
    const profiles = join(root, 'profiles');
    rmSync(profiles, { recursive: true, force: true });
    await run({ argv: ['mkdir', '-p', profiles] });
    writeFileSync(
      join(profiles, 'odd.yaml'),
      'description: bad generator\ngenerator: Ninja2\ncmake_flags: []\nccache: false\ntimeout_minutes: 5\n',
    );
    const file = writeConfig(
      join(root, 'odd.yaml'),
      demoUpstream('demo', '10.11', 'odd'),
      `build_profiles_dir: ${profiles}\n`,
    );
    const result = await runCli(['--config', file, 'build', 'mariadb-10.11.2']);
    assert.equal(result.code, 2);
    const lines = messageLines(result.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      /generator = "Ninja2": is not a known CMake generator; use one of: "Unix Makefiles", "Ninja"/,
    );
    rmSync(file);
  });

  test('the disk guard refuses a build, naming the free and the needed bytes', async () => {
    const file = writeConfig(join(root, 'full.yaml'), demoUpstream(), '', 10 ** 15);
    const result = await runCli(['--config', file, 'build', 'mariadb-10.11.2']);
    const lines = messageLines(result.stderr);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      /not enough free disk space in .*: .* \(\d+ bytes\) free, .* \(1000000000000000 bytes\) needed/,
    );
    rmSync(file);
  });
});
