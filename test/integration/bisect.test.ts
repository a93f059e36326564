import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { defaultSqlitePath, openStore, type BisectionRecord } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * Bisection on the demo upstream, as a person runs it: mariadb-10.5.1 becomes last good, the check of 10.5.2 finds
 * its write test regressed, and `bisect mariadb-10.5.2` (no --good, no tests: both from the checks) builds
 * midpoints of the 17 commits after 10.5.1, skips the one that does not compile, and names the commit that made
 * every commit durable, with its subject and author, in at most ceil(log2(17)) + 2 = 7 builds. Real git, cmake,
 * mariadbd and sysbench; each step is a short paired session of one write test, where fsync at commit costs several
 * times the relaxed rate.
 */
let root = '';
let demo: DemoUpstream;
const cli = (...args: string[]) =>
  runCli(['--config', join(root, 'qpswatch.yaml'), ...args], {
    env: { USER: 'tester' },
  });
const SESSION_FLAGS = ['--suite', '', '--pairs', '8', '--seconds', '1'];

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-bisect-'));
  demo = await makeDemoUpstream(join(root, 'upstream'));
  SESSION_FLAGS[1] = join(root, 'write.yaml');
  await writeFile(
    join(root, 'qpswatch.yaml'),
    [
      `state_dir: ${join(root, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      // New server instances before every sweep: the few pairs of a tiny suite make enough blocks.
      'instance_seconds: 0',
      // Tables of a few thousand rows need no warm-up after a restart: each block starts at once.
      'instance_warmup_seconds: 0',
      `cache_dir: ${join(root, 'cache')}`,
      // A lock of this test's own, as the other tests have: never the host's default one.
      `host_lock: ${join(root, 'host.lock')}`,
      'log_level: warn',
      // The check before the bisection opens a regression: its profile is profile.test's and check-release's.
      'profiling: off',
      'min_free_bytes: 1000000',
      // A wide margin for these 1-second tests on a shared host; fsync at commit costs far more than 40%.
      'test_thresholds: { update-index: 0.6 }',
      'bisect_max_builds: 8',
      // The idle server need not settle long: the durable commits are many times slower, noise or not.
      'idle_settle_max_seconds: 1',
      'upstreams:',
      `  - { name: demo, remote: ${demo.dir}, flavor: mariadb, series: "10.5", build_profile: demo, ` +
        'server_profile: relaxed }',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(root, 'write.yaml'),
    'name: write\ndescription: one write test\nload: { tables: 1, table_size: 2000 }\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] }\n' +
      'tests:\n  - { name: update-index, script: oltp_update_index }\n',
  );
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('qpswatch bisect on the demo upstream', () => {
  test('10.5.1 is last good and the check of 10.5.2 finds update-index regressed', async () => {
    const { goodTag, badTag } = demo.bisect;
    for (const tag of [goodTag, badTag]) assert.equal((await cli('build', tag)).code, 0, tag);
    const first = await cli('check', goodTag, ...SESSION_FLAGS);
    assert.equal(first.code, 0, first.stderr);
    const checked = await cli('check', badTag, ...SESSION_FLAGS);
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /: regression; new regressions: update-index\.t1 0\.\d\d/);
  });

  test(
    'bisect names the slow commit with its subject and author, skips the broken one, within the build bound',
    { timeout: 15 * 60_000 },
    async () => {
      const { slow, broken, badTag, steps } = demo.bisect;
      const started = Date.now();
      const result = await cli('bisect', badTag, ...SESSION_FLAGS);
      const seconds = (Date.now() - started) / 1000;
      assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
      const out = result.stdout;
      assert.match(out, new RegExp(`^first bad commit: ${slow.commit}$`, 'm'));
      assert.ok(out.includes(`\n  subject: ${slow.subject}\n`), out);
      assert.ok(out.includes(`\n  author:  ${slow.authorName}\n`), out);
      assert.match(
        out,
        new RegExp(`^step \\d \\(of 17 commits\\): ${broken.commit.slice(0, 12)} .*did not build`, 'm'),
      );

      const record = await storedBisection();
      const n = steps.length + 1;
      const bound = Math.ceil(Math.log2(n)) + 2;
      assert.equal(record.commitCount, n);
      assert.equal(record.outcome, 'found');
      assert.deepEqual(record.firstBad, { commit: slow.commit, subject: slow.subject, author: slow.authorName });
      assert.ok(
        record.steps.some((s) => s.commit === broken.commit && s.outcome === 'skip'),
        'the broken one skipped',
      );
      assert.ok(record.builds <= bound, `${record.builds} builds, bound ${bound}`);
      assert.match(out, new RegExp(`^builds: ${record.builds} \\(bound ceil\\(log2\\(17\\)\\) \\+ 2 = 7\\)`, 'm'));
      // The midpoint installs are gone; the releases' builds stay.
      for (const step of record.steps)
        assert.ok(!existsSync(join(root, 'state', 'builds', step.buildKey!, 'install')), step.commit);
      const status = await cli('status');
      assert.ok(
        status.stdout.includes(
          `bisect ${JSON.stringify(badTag)}: first bad commit ${slow.commit.slice(0, 12)} ` +
            `${JSON.stringify(slow.subject)} by ${JSON.stringify(slow.authorName)}`,
        ),
        status.stdout,
      );
      process.stdout.write(
        `# bisect figures: n=${n} builds=${record.builds} bound=${bound} seconds=${seconds.toFixed(0)}\n`,
      );
    },
  );
});

describe('qpswatch bisect on the instructions lane', () => {
  test(
    'names the slow commit by its instructions per query, one counted run a step, within the bound',
    { timeout: 15 * 60_000 },
    async () => {
      const { slow, broken, badTag, steps } = demo.bisect;
      const started = Date.now();
      // The check before counted nothing (the lane is off in these tests): the good end is counted once, too.
      const result = await runCli(
        ['--config', join(root, 'qpswatch.yaml'), 'bisect', badTag, 'update-index', '--lane', 'instructions'],
        {
          env: {
            USER: 'tester',
            QPSWATCH_INSTRUCTION_COUNTER: 'callgrind',
            // Enough events that a one-off cost in a run (about 400,000 instructions: 4% of 100 updates) is well
            // under the 1% the good steps are held to.
            QPSWATCH_INSTRUCTIONS_EVENTS: '1000',
            QPSWATCH_INSTRUCTIONS_WARMUP_EVENTS: '100',
          },
        },
      );
      const seconds = (Date.now() - started) / 1000;
      assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
      const out = result.stdout;
      assert.match(out, new RegExp(`^first bad commit: ${slow.commit}$`, 'm'));
      assert.match(
        out,
        new RegExp(`^step \\d \\(of 17 commits\\): ${broken.commit.slice(0, 12)} .*did not build`, 'm'),
      );
      // Each judged step names its ratio; the slow commit's 10,000 more instructions are about 10% of an update.
      const slowRatio = 'instructions update-index\\.t1 x1\\.\\d{3}';
      assert.match(
        out,
        new RegExp(`^step \\d \\(of 17 commits\\): ${slow.commit.slice(0, 12)} .*: bad, ${slowRatio}`, 'm'),
      );
      assert.match(out, /: good, instructions update-index\.t1 x(0\.99\d|1\.00\d) /);
      const record = await storedBisection();
      const n = steps.length + 1;
      const bound = Math.ceil(Math.log2(n)) + 2;
      assert.equal(record.outcome, 'found');
      assert.deepEqual(record.firstBad, { commit: slow.commit, subject: slow.subject, author: slow.authorName });
      const counted = record.steps.filter((s) => s.instructionRatios !== undefined).length + 1;
      assert.ok(counted <= bound, `${counted} counted runs (the steps and the good end), bound ${bound}`);
      assert.match(
        out,
        new RegExp(`^judged on instructions per query: ${counted} counted run\\(s\\) per test \\(bound 7\\)`, 'm'),
      );
      process.stdout.write(
        `# bisect on instructions: n=${n} counted runs=${counted} bound=${bound} seconds=${seconds.toFixed(0)}\n`,
      );
    },
  );
});

async function storedBisection(): Promise<BisectionRecord> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(join(root, 'state')) });
  try {
    const [record] = await store.listBisections({ limit: 1 });
    assert.ok(record !== undefined, 'a bisection is stored');
    return record;
  } finally {
    await store.close();
  }
}
