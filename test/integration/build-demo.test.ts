import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  BuildFailedError,
  BuildProfileError,
  buildKey,
  buildPathsFor,
  buildWorktree,
  checkFreeSpace,
  compilerVersion,
  DiskSpaceError,
  ensureBuild,
  isInstallComplete,
  loadBuildProfile,
  type BuildProfile,
  type BuildProgress,
  WORKTREE_BUILD_DIR,
  type EnsureBuildResult,
} from '../../src/compile/index.js';
import { defaultEnv, run } from '../../src/exec/index.js';
import {
  checkServerOptions,
  initDatadir,
  loadServerProfile,
  renderMyCnf,
  resolveServerBinaries,
  serverPaths,
  startServer,
  type ServerBinaries,
} from '../../src/server/index.js';
import { makeDemoUpstream, type DemoTaggedRelease, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { DRIFT_QUERY_INSTRUCTIONS } from '../../scripts/demo-upstream/releases.js';
import { parseCallgrindOutput } from '../../src/instructions/index.js';
import { silentLog } from '../helpers/silent-log.js';
import { letServerPass } from '../helpers/server-user.js';
import { joined } from '../helpers/pattern.js';

let root = '';
let demo: DemoUpstream;
let profile: BuildProfile;
let compiler = '';
const stateDir = (): string => join(root, 'state');
const cacheDir = (): string => join(root, 'cache');

const worktrees = new Map<string, string>();

/** Checks the release's commit out by id, as the upstream room will: tag names never reach a command line. */
async function worktreeOf(release: DemoTaggedRelease): Promise<string> {
  const known = worktrees.get(release.commit);
  if (known !== undefined) return known;
  const dir = join(root, 'worktrees', release.version);
  await run({ argv: ['git', '-C', demo.dir, 'worktree', 'add', '--detach', '--quiet', dir, release.commit] });
  worktrees.set(release.commit, dir);
  return dir;
}

function release(pick: (r: DemoTaggedRelease) => boolean): DemoTaggedRelease {
  const found = demo.releases.find(pick);
  assert.ok(found, 'the demo upstream has the release the test needs');
  return found;
}

async function build(r: DemoTaggedRelease, progress: BuildProgress[] = []): Promise<EnsureBuildResult> {
  const key = buildKey({ commit: r.commit, profile, compilerVersion: compiler });
  return ensureBuild({
    log: silentLog,
    stateDir: stateDir(),
    cacheDir: cacheDir(),
    key,
    worktree: await worktreeOf(r),
    profile,
    onProgress: (p) => progress.push(p),
  });
}

/** ccache's own counters for the test's cache folder. */
async function ccacheHits(): Promise<number> {
  const result = await run({
    argv: ['ccache', '--print-stats'],
    env: { ...defaultEnv(), CCACHE_DIR: join(cacheDir(), 'ccache') },
  });
  const counters = new Map(result.stdout.split('\n').map((l) => l.split('\t') as [string, string]));
  return Number(counters.get('direct_cache_hit') ?? 0) + Number(counters.get('preprocessed_cache_hit') ?? 0);
}

/**
 * A server of a demo build in root/NAME under the relaxed profile (a release's own settings come after it and win),
 * its datadir initialised; `checkOptions` first checks the profile's options against the binary.
 */
async function startDemoServer(binaries: ServerBinaries, name: string, checkOptions = false) {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const paths = serverPaths(dir);
  const myCnfPath = join(dir, 'my.cnf');
  await writeFile(myCnfPath, renderMyCnf(await loadServerProfile('relaxed'), binaries, paths));
  if (checkOptions) await checkServerOptions(binaries, myCnfPath);
  await initDatadir({ log: silentLog, binaries, myCnfPath, paths, logFile: join(dir, 'init.log') });
  return startServer({
    log: silentLog,
    binaries,
    myCnfPath,
    paths,
    logFile: join(dir, 'mysqld.out'),
    readyTimeoutMs: 60_000,
    stopTimeoutMs: 30_000,
  });
}

before(async () => {
  // Short: the server test's socket lives under it.
  root = letServerPass(await mkdtemp('/tmp/qpsw-bld-'));
  demo = await makeDemoUpstream(join(root, 'upstream'));
  profile = await loadBuildProfile('demo');
  compiler = await compilerVersion(profile);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the demo upstream built with the demo profile', () => {
  let warm: EnsureBuildResult;

  test('a second release builds faster than the first: ccache serves the files that did not change', async (t) => {
    const coldProgress: BuildProgress[] = [];
    const cold = await build(
      release((r) => r.version === '10.11.1'),
      coldProgress,
    );
    const hitsBefore = await ccacheHits();
    warm = await build(release((r) => r.kind === 'slow'));
    const hits = (await ccacheHits()) - hitsBefore;

    assert.equal(cold.built, true);
    assert.equal(warm.built, true);
    assert.notEqual(cold.installDir, warm.installDir);
    assert.deepEqual(
      coldProgress.filter((p) => p.event !== 'progress').map((p) => `${p.phase}:${p.event}`),
      ['configure:start', 'configure:end', 'build:start', 'build:end', 'install:start', 'install:end'],
    );
    // The compile's own [ n%] lines, read as they stream: between build:start and build:end, only forward, ending at 1.
    const events = coldProgress.map((p) => `${p.phase}:${p.event}`);
    const ratios = coldProgress.flatMap((p) => (p.event === 'progress' ? [p.compile!.ratio] : []));
    assert.ok(ratios.length >= 2, `progress events: ${JSON.stringify(ratios)}`);
    assert.ok(
      ratios.every((r, i) => i === 0 || r > ratios[i - 1]!),
      `not increasing: ${JSON.stringify(ratios)}`,
    );
    assert.equal(ratios.at(-1), 1);
    assert.ok(
      events.indexOf('build:start') < events.indexOf('build:progress') &&
        events.lastIndexOf('build:progress') < events.indexOf('build:end'),
    );
    // The engine's 7 files are the same in both releases; only the launcher (which includes the version) differs.
    assert.ok(hits >= 7, `ccache hits in the second build: ${hits}, expected at least 7`);
    const coldBuild = cold.record.durationsMs['build']!;
    const warmBuild = warm.record.durationsMs['build']!;
    const total = (r: EnsureBuildResult): number => Object.values(r.record.durationsMs).reduce((a, b) => a + b, 0);
    t.diagnostic(`cold: ${JSON.stringify(cold.record.durationsMs)}; warm: ${JSON.stringify(warm.record.durationsMs)}`);
    t.diagnostic(
      `ccache ratio cold/warm: build step ` +
        `${(coldBuild / warmBuild).toFixed(1)}x, whole build ` +
        `${(total(cold) / total(warm)).toFixed(1)}x`,
    );
    assert.ok(warmBuild < coldBuild, `warm build step ${warmBuild} ms is not faster than cold ${coldBuild} ms`);
  });

  test('the same key is never built twice', async () => {
    const again = await build(release((r) => r.kind === 'slow'));
    assert.equal(again.built, false);
    assert.equal(again.installDir, warm.installDir);
    assert.equal(await isInstallComplete(stateDir(), again.key), true);
  });

  test('an install without its marker (a build that died half way) is built again', async () => {
    const cold = release((r) => r.version === '10.11.1');
    const key = buildKey({ commit: cold.commit, profile, compilerVersion: compiler });
    await rm(buildPathsFor(stateDir(), key).marker);
    assert.equal(await isInstallComplete(stateDir(), key), false);
    const again = await build(cold);
    assert.equal(again.built, true);
    assert.equal(await isInstallComplete(stateDir(), key), true);
    const selftest = await run({ argv: [join(again.installDir, 'bin', 'mariadbd'), '--demo-selftest'] });
    assert.match(selftest.stdout, /^engine [0-9a-f]{16}\n$/);
  });

  test("the installed server reports the tag's version and runs with the release's settings", async () => {
    const binaries = await resolveServerBinaries('mariadb', warm.installDir);
    assert.equal(binaries.version.text, '10.11.3');
    assert.match(binaries.versionText, /Ver 10\.11\.3-MariaDB-qpswatch-demo/);
    assert.ok(binaries.installDb !== undefined, 'mariadb-install-db is found in the install prefix');

    // relaxed does not fsync at commit: the release's own settings must win over it.
    const server = await startDemoServer(binaries, 'srv', true);
    try {
      const [row] = await server.query(
        'SELECT VERSION() AS v, @@innodb_flush_log_at_trx_commit AS flush, @@sync_binlog AS sync',
      );
      assert.deepEqual({ ...row }, { v: '10.11.3-MariaDB-qpswatch-demo', flush: 1, sync: 1 });
    } finally {
      await server.stop();
    }
  });

  const driftTitle =
    "a drift release's server carries its extra work: a fixed count of instructions per query, none at 10.6.1";
  test(driftTitle, async () => {
    const [base, last] = [release((r) => r.version === '10.6.1'), release((r) => r.version === '10.6.5')];
    assert.equal(base.extraInstructions, 0);
    assert.ok(Math.abs(last.extraInstructions! / DRIFT_QUERY_INSTRUCTIONS - 0.1296) < 0.0001, 'about 13% at 10.6.5');
    const [baseBuild, lastBuild] = [await build(base), await build(last)];
    // The library around one request (test/fixtures/demo/extra-work-probe.c), counted by callgrind: exact on a busy
    // host too. Without the library the probe's recv and send are glibc's own.
    const probe = join(root, 'extra-work-probe');
    await run({
      argv: ['cc', '-O2', '-o', probe, join(process.cwd(), 'test', 'fixtures', 'demo', 'extra-work-probe.c')],
    });
    const counted = async (installDir?: string): Promise<number> => {
      const out = join(root, `probe.${installDir === undefined ? 'plain' : basename(dirname(installDir))}.out`);
      await run({
        argv: ['valgrind', '--tool=callgrind', '--toggle-collect=probe_query', `--callgrind-out-file=${out}`, probe],
        env: {
          ...defaultEnv(),
          ...(installDir !== undefined ? { LD_PRELOAD: join(installDir, 'lib', 'libdemo_extra_work.so') } : {}),
        },
      });
      return parseCallgrindOutput(await readFile(out, 'utf8')).instructions;
    };
    const plain = await counted();
    // The wrappers' own few dozen instructions, and a first call's dlsym (a few thousand) on top of the loop.
    const added = async (installDir: string): Promise<number> => (await counted(installDir)) - plain;
    const baseAdded = await added(baseBuild.installDir);
    assert.ok(baseAdded >= 0 && baseAdded < 20_000, `10.6.1 adds only the wrappers: ${baseAdded}`);
    const lastAdded = (await added(lastBuild.installDir)) - baseAdded;
    assert.ok(
      Math.abs(lastAdded - last.extraInstructions!) <= 4,
      `10.6.5 adds ${last.extraInstructions} instructions to a request: ${lastAdded}`,
    );
    // The launcher preloads it into the server it becomes.
    const binaries = await resolveServerBinaries('mariadb', lastBuild.installDir);
    const server = await startDemoServer(binaries, 'drift-srv');
    try {
      assert.match(await readFile(`/proc/${server.pid}/maps`, 'utf8'), /\/lib\/libdemo_extra_work\.so$/m);
      const [row] = await server.query('SELECT VERSION() AS v');
      assert.equal(row?.['v'], '10.6.5-MariaDB-qpswatch-demo');
    } finally {
      await server.stop();
    }
  });

  test('a release that does not compile fails in the build step with the C error', async () => {
    const broken = release((r) => r.kind === 'broken');
    const worktree = await worktreeOf(broken);
    const dir = join(root, 'broken');
    // Built where ensureBuild builds, so the engine comes from ccache and only the launcher is compiled.
    const buildDir = join(worktree, WORKTREE_BUILD_DIR);
    await assert.rejects(
      buildWorktree({
        log: silentLog,
        worktree,
        profile,
        buildDir,
        installDir: join(dir, 'install'),
        logFile: join(dir, 'build.log'),
        cacheDir: cacheDir(),
      }),
      (err: unknown) => {
        assert.ok(err instanceof BuildFailedError, String(err));
        assert.equal(err.failure.phase, 'build');
        assert.equal(err.failure.timedOut, false);
        assert.notEqual(err.failure.exitCode, 0);
        // gcc quotes with ‘’ under a UTF-8 locale.
        assert.match(
          err.failure.failureLines[0] ?? '',
          /mariadbd\.c:\d+:\d+: error: expected [‘']?;[’']? before [‘']?\}[’']? token/,
        );
        assert.ok(err.failure.lines.length > 0);
        assert.match(
          err.message,
          joined(
            /failed in build: cmake exited with code \d+: /,
            /.*mariadbd\.c:\d+:\d+: error: expected .*; full log: /,
            /.*build\.log$/,
          ),
        );
        return true;
      },
    );
    await assert.rejects(access(join(dir, 'install', 'bin', 'mariadbd')));
  });

  test(
    'a profile with an unknown generator fails on load with one line naming ' +
      'the file, the value and the valid ones',
    async () => {
      const dir = join(root, 'profiles');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'odd.yaml'), 'description: odd\ngenerator: Ninja2\n');
      await assert.rejects(loadBuildProfile('odd', dir), (err: unknown) => {
        assert.ok(err instanceof BuildProfileError);
        assert.equal(err.message.includes('\n'), false);
        assert.equal(
          err.message,
          `build profile ${join(dir, 'odd.yaml')}: generator = "Ninja2": is not a ` +
            `known CMake generator; use one of: "Unix Makefiles", "Ninja" (or leave ` +
            `it out for "Unix Makefiles")`,
        );
        return true;
      });
    },
  );

  test('the disk guard refuses an absurd minimum and names the free and the needed bytes', async () => {
    await assert.rejects(checkFreeSpace(stateDir(), 2 ** 60), (err: unknown) => {
      assert.ok(err instanceof DiskSpaceError);
      assert.match(
        err.message,
        joined(
          /^not enough free disk space in /,
          /\/tmp\/qpsw-bld-\w+(\/state)?: \d+\.\d [KMGT]iB \(\d+ bytes\) /,
          /free, 1\.0 EiB \(1152921504606846976 bytes\) needed to /,
          /build; free some space \(`qpswatch prune` deletes old /,
          /installed builds\) or lower the minimum/,
        ),
      );
      assert.ok(err.freeBytes > 0);
      return true;
    });
  });
});

test('the demo upstream has the same commit ids every time it is made', async () => {
  const again = await makeDemoUpstream(join(root, 'upstream-again'));
  assert.deepEqual(
    again.releases.map((r) => r.commit),
    demo.releases.map((r) => r.commit),
  );
  assert.deepEqual(
    demo.releases.map((r) => `${r.tag}:${r.kind}`),
    [
      'mariadb-10.11.1:normal',
      'mariadb-10.11.2:normal',
      'mariadb-10.11.3:slow',
      'mariadb-10.11.4:broken',
      'mariadb-10.11.9:normal',
      'mariadb-10.11.10:normal',
      'mariadb-11.4.1:normal',
      'mariadb-10.6.1:normal',
      'mariadb-10.6.2:drift',
      'mariadb-10.6.3:drift',
      'mariadb-10.6.4:drift',
      'mariadb-10.6.5:drift',
    ],
  );
  await assert.rejects(makeDemoUpstream(join(root, 'upstream-again')), /exists and is not empty/);
});

test('making the demo upstream runs no tag name through a shell', async () => {
  // The hostile names would create the marker in the working directory of a shell that ran them.
  for (const dir of [process.cwd(), demo.dir, root]) await assert.rejects(access(join(dir, demo.hostileMarker)));
  const tags = await run({ argv: ['git', '-C', demo.dir, 'tag', '--list'] });
  for (const hostile of demo.hostileTags) assert.ok(tags.stdout.split('\n').includes(hostile.name), hostile.name);
});
