import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';
import { letServerPass } from '../helpers/server-user.js';
import { joined } from '../helpers/pattern.js';
import { seriesReleaseSamples } from '../../src/views/index.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * Build variants and patches on the demo upstream, as a user runs them: one tag built with two build profiles
 * (TAG@PROFILE) and compared with itself, a patch that changes the build key and the measured result, and a patch
 * that does not apply, which fails that build alone with one line, by hand (`build`) and in the daemon's cycle
 * (`once`).
 */
const root = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-variants-')));
const profilesDir = join(root, 'profiles');
const PATCH_NAME = 'demo-durable-commit.patch';
const FIXTURE = join(projectRoot, 'test', 'fixtures', 'compile', PATCH_NAME);
let demo: DemoUpstream;

function writeConfig(name: string, upstreamExtra = ''): string {
  const file = join(root, `${name}.yaml`);
  writeFileSync(
    file,
    `state_dir: ${join(root, `state-${name}`)}\nserver_profiles_dir: ${testServerProfilesDir()}\ncache_dir: ` +
      `${join(root, 'cache')}\nhost_lock: ` +
      `${join(root, 'host.lock')}\nlog_level: warn\nmin_free_bytes: 1000000\n` +
      // The compare below is 2 whole-run rounds, whose smallest p-value is 1/6: alpha 0.2 lets it start.
      `build_profiles_dir: ${profilesDir}\nalpha: 0.2\n` +
      (`upstreams:\n  - { name: demo, remote: ${demo.dir}, flavor: mariadb, ` +
        `series: "10.11", build_profile: demo, server_profile: ` +
        `relaxed${upstreamExtra} }\n`),
  );
  return file;
}

let configFile = '';
const cli = (...args: string[]): Promise<CliResult> => runCli(['--config', configFile, ...args]);

/** The key in `built "TAG" in N s: <state>/builds/<key>/install`. */
function builtKey(result: CliResult): string {
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  const key = /\/builds\/([0-9a-f]{16})\/install\n$/.exec(result.stdout)?.[1];
  assert.ok(key !== undefined, result.stdout);
  return key;
}

before(async () => {
  demo = await makeDemoUpstream(join(root, 'upstream'));
  // The shipped demo profiles, and demo-durable: the same cmake flags as demo plus one patch (relative to its folder).
  mkdirSync(profilesDir);
  for (const name of ['demo', 'demo-debug'])
    copyFileSync(join(projectRoot, 'config', 'build-profiles', `${name}.yaml`), join(profilesDir, `${name}.yaml`));
  copyFileSync(FIXTURE, join(profilesDir, PATCH_NAME));
  const demoProfile = readFileSync(join(profilesDir, 'demo.yaml'), 'utf8');
  writeFileSync(
    join(profilesDir, 'demo-durable.yaml'),
    demoProfile.replace(
      /^description: >-\n(  .*\n)+/,
      'description: the demo profile plus a patch that makes every commit durable\n',
    ) + `\npatches: [${PATCH_NAME}]\n`,
  );
  configFile = writeConfig('by-hand');
});

after(() => rmSync(root, { recursive: true, force: true }));

describe('build variants and patches of the demo upstream', () => {
  const TAG = 'mariadb-10.11.9';

  test('one tag, three builds: a patch changes the build key, and so does another profile', async () => {
    const plain = builtKey(await cli('build', TAG));
    const patched = builtKey(await cli('build', `${TAG}@demo-durable`));
    const debug = builtKey(await cli('build', `${TAG}@demo-debug`));
    // demo-durable has demo's cmake flags: only its patch tells the two keys apart.
    assert.equal(new Set([plain, patched, debug]).size, 3, `${plain} ${patched} ${debug}`);
    const again = await cli('build', `${TAG}@demo-durable`);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`"${TAG}@demo-durable" is built already \\(key ${patched}\\)`));
  });

  test(
    'a patch that does not apply fails that build with one line (patch, ' +
      "tag, git's reason); the next build goes on",
    async () => {
      // 10.11.3 is durable already: the patch's "-" line is not there.
      const failed = await cli('build', `${demo.slowTag}@demo-durable`);
      assert.equal(failed.code, 1, failed.stderr);
      const lines = failed.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, new RegExp(`^build of "${demo.slowTag}@demo-durable" failed; log .*/build\\.log$`));
      assert.deepEqual(lines.slice(1), [
        `  patch ${join(profilesDir, PATCH_NAME)} does not apply to ` +
          `"${demo.slowTag}": patch failed: release.cmake:3; release.cmake: patch ` +
          `does not apply`,
      ]);
      const again = await cli('build', `${demo.slowTag}@demo-durable`);
      assert.match(again.stdout, /failed before and was not retried \(--retry\)/);
      // The variant's failure is not the release's: discover lists the state of the upstream profile's build.
      const listing = await cli('discover');
      assert.match(listing.stdout, new RegExp(`"${demo.slowTag}"\\s+10\\.11\\.3\\s+[0-9a-f]{12}\\s+new`));
      builtKey(await cli('build', 'mariadb-10.11.10@demo-durable'));
    },
  );

  test(
    'compare TAG@demo against TAG@demo-durable: the patched build is slower ' +
      'on writes, and each side names its build profile',
    async () => {
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
        `${TAG}@demo`,
        '--candidate',
        `${TAG}@demo-durable`,
        '--suite',
        suite,
        '--rounds',
        '2',
        '--format',
        'json',
      );
      assert.equal(result.code, 0, result.stderr);
      const view = JSON.parse(result.stdout) as ComparisonView;
      assert.deepEqual(
        [view.baseline.name, view.baseline.buildProfile, view.candidate.name, view.candidate.buildProfile],
        [`${TAG}@demo`, 'demo', `${TAG}@demo-durable`, 'demo-durable'],
      );
      assert.equal(view.candidate.version, view.baseline.version);
      // The patch fsyncs the redo log and the binlog at every commit: the write test loses most of its rate.
      const update = view.tests.find((t) => t.test === 'update-index')!;
      assert.ok(update.relativeQps < 0.8, `update-index relative QPS ${update.relativeQps}`);
      assert.ok(update.candidate.perOp.writeKBPerOp > update.baseline.perOp.writeKBPerOp, 'wKB/o grew');

      // The stored session keeps what each side ran, and `show` prints it again with the build profiles.
      const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(join(root, 'state-by-hand')) });
      try {
        const [session] = await store.listSessions({ limit: 1 });
        assert.deepEqual(
          [session?.baseline.description['buildProfile'], session?.candidate.description['buildProfile']],
          ['demo', 'demo-durable'],
        );
        // TAG@demo is the upstream's own build; TAG@demo-durable is not, and stays out of the series' history and
        // metrics.
        assert.deepEqual(
          [session?.baseline.description['kind'], session?.candidate.description['kind']],
          ['release', 'release-variant'],
        );
        const baselineSamples = (await store.completedSamples(session!.id)).filter((x) => x.role === 'baseline').length;
        assert.ok(baselineSamples > 0);
        assert.equal(
          (await seriesReleaseSamples(store, 'demo')).length,
          baselineSamples,
          'only the baseline side counts as mariadb-10.11.9 of the series',
        );
        const shown = await cli('show', String(session!.id));
        assert.equal(shown.code, 0, shown.stderr);
        assert.match(
          shown.stdout,
          new RegExp(`^baseline +B: ${TAG}@demo \\(mariadb 10\\.11\\.9, built with demo, profile relaxed\\)$`, 'm'),
        );
        assert.match(
          shown.stdout,
          new RegExp(
            `^candidate C: ${TAG}@demo-durable \\(mariadb 10\\.11\\.9, built with demo-durable, profile relaxed\\)$`,
            'm',
          ),
        );
      } finally {
        await store.close();
      }
    },
  );

  test(
    'a release compared under a memory setting gets a table of its own in ' +
      "the series' history, beside the one without",
    async () => {
      // After the test above, mariadb-10.11.9 of the series has results without a memory setting; now it runs cached.
      const result = await cli(
        'compare',
        '--baseline',
        TAG,
        '--candidate',
        TAG,
        '--suite',
        join(root, 'tiny.yaml'),
        '--rounds',
        '2',
        '--memory',
        'cached',
      );
      assert.equal(result.code, 0, result.stderr);
      const report = await cli('report', '--series', 'demo');
      assert.equal(report.code, 0, report.stderr);
      const headings = [...report.stdout.matchAll(/^Relative QPS at (.*) \(version \/ 10\.11\.9\)$/gm)].map(
        (m) => m[1],
      );
      // One table per level, memory setting and test family (the tiny suite's write and its read).
      assert.deepEqual(headings, [
        '1 thread: point queries',
        '1 thread: writes',
        '1 thread, cached: point queries',
        '1 thread, cached: writes',
      ]);
      assert.match(report.stdout, /^Per operation: point-query\.t1\.cached$/m);
      // The results file has no memory column: export keeps to the rows measured without one.
      const exported = await cli('export', '--series', 'demo');
      assert.equal(exported.code, 0, exported.stderr);
      assert.doesNotMatch(exported.stdout, /cached/);
      assert.equal(exported.stdout.trimEnd().split('\n').length, 1 + 2, exported.stdout);
    },
  );

  test('a variant that was not built is refused before anything starts, with the command that builds it', async () => {
    const result = await cli('compare', '--baseline', `${TAG}@demo`, '--candidate', 'mariadb-10.11.2@demo-debug');
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      joined(
        /target 'mariadb-10\.11\.2@demo-debug': mariadb-10\.11\.2 is /,
        /not built with build profile demo-debug: build it first /,
        /\(qpswatch build mariadb-10\.11\.2@demo-debug\)/,
      ),
    );
  });

  test('config check names a patch file that cannot be read, with who lists it', async () => {
    const missing = join(root, 'no-such.patch');
    const file = writeConfig('missing-patch', `, patches: [${missing}]`);
    const result = await runCli(['config', 'check', file]);
    assert.notEqual(result.code, 0);
    assert.match(
      `${result.stdout}${result.stderr}`,
      new RegExp(
        `upstreams\\[0\\]: patch ${missing} \\(listed by upstream "demo"\\) cannot be read \\(ENOENT\\): fix the path`,
      ),
    );
  });

  test(
    "an upstream's patches in the daemon's cycle: the tag it does not apply " +
      'to fails with the line, the next one is built',
    async () => {
      configFile = writeConfig('daemon', `, patches: [${FIXTURE}], include: ["${demo.slowTag}", "${TAG}"]`);
      const once = await cli('once');
      assert.equal(once.code, 0, once.stderr);
      assert.match(
        once.stdout,
        /^cycle done: 2 release\(s\) queued, 1 built, 1 build failure\(s\), 0 checked, 0 failed on the way$/m,
      );
      const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(join(root, 'state-daemon')) });
      try {
        const queue = await store.listQueue();
        const slow = queue.find((q) => q.tag === demo.slowTag);
        assert.equal(slow?.state, 'failed');
        assert.ok(
          slow.errorLines.includes(
            `patch ${FIXTURE} does not apply to "${demo.slowTag}": patch failed: ` +
              `release.cmake:3; release.cmake: patch does not apply`,
          ),
          slow.errorLines.join('\n'),
        );
        assert.equal(queue.find((q) => q.tag === TAG)?.state, 'done');
      } finally {
        await store.close();
      }
    },
  );
});
