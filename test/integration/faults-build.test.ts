import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildKey, compilerVersion, loadBuildProfile } from '../../src/compile/index.js';
import { run } from '../../src/exec/index.js';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { messageLines, runCli, type CliResult } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * Faults injected for real into builds of the demo upstream, as a user meets them: two builds of one tag at once,
 * the worktree folder a killed build left, a build killed with SIGKILL half way (its cmake, make and compiler run on
 * in their own process group), a compiler error that carries terminal escape sequences, and a full disk.
 */
const root = mkdtempSync('/tmp/qpsw-fb-');
const stateDir = join(root, 'state');
const cacheDir = join(root, 'cache');
// A host lock of its own: the test is its own host, so it neither waits for nor blocks other test files.
const hostLock = join(root, 'host.lock');
// While this file exists, the slow tag's build step sleeps (so it can be killed half way).
const slowMarker = join(root, 'slow-build');
const SLOW_TAG = 'mariadb-10.11.20';
// While this file exists, the hold tags' build step waits: a build holds its locks until the test lets it go, so an
// overlap is forced, never left to timing.
const holdMarker = join(root, 'hold-build');
const HOLD_TAGS = ['mariadb-10.11.22', 'mariadb-10.11.23'] as const;
const ESCAPE_TAG = 'mariadb-10.11.21';
const ESCAPES = '\x1b]0;pwned-title\x07\x1b[2J';
let demo: DemoUpstream;

function writeConfig(file: string, opts: { cache?: string; lock?: string } = {}): string {
  writeFileSync(
    file,
    `state_dir: ${stateDir}\ncache_dir: ` +
      `${opts.cache ?? cacheDir}\nhost_lock: ` +
      `${opts.lock ?? hostLock}\nlog_level: info\nmin_free_bytes: 1000000\n` +
      (`upstreams:\n  - { name: demo, remote: ${demo.dir}, flavor: mariadb, ` +
        `series: "10.11", build_profile: demo, server_profile: relaxed }\n`),
  );
  return file;
}

const configFile = (): string => join(root, 'qpswatch.yaml');
const cli = (...args: string[]): Promise<CliResult> => runCli(['--config', configFile(), ...args]);

/** The key qpswatch gives a tag's build with the demo profile: the name of its worktree and lock. */
async function keyOf(tag: string): Promise<string> {
  const profile = await loadBuildProfile('demo');
  const commit = (await git(demo.dir, 'rev-parse', `${tag}^{commit}`)).trim();
  return buildKey({ commit, profile, compilerVersion: await compilerVersion(profile) });
}

async function git(dir: string, ...args: string[]): Promise<string> {
  const env = {
    PATH: process.env['PATH']!,
    HOME: root,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  return (await run({ argv: ['git', '-C', dir, ...args], env })).stdout;
}

/** A release on top of 10.11.10 whose sources `change` edits: committed and tagged in the demo upstream. */
async function tagRelease(tag: string, change: (dir: string) => void): Promise<void> {
  const dir = join(root, `edit-${tag}`);
  await git(demo.dir, 'worktree', 'add', '--detach', '--quiet', dir, 'mariadb-10.11.10');
  change(dir);
  await git(dir, 'commit', '--quiet', '--all', '--message', tag);
  await git(dir, 'tag', '--annotate', '--message', tag, tag);
  await git(demo.dir, 'worktree', 'remove', '--force', dir);
}

/** The processes (pid and program) whose working folder is under `dir`: what a build there runs. */
function processesWorkingUnder(dir: string): Array<{ pid: number; program: string }> {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const cwd = readlinkSync(`/proc/${p}/cwd`);
        if (!cwd.startsWith(dir)) return [];
        if (readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return [];
        const program = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0')[0]?.split('/').at(-1) ?? '';
        return [{ pid: Number(p), program }];
      } catch {
        return [];
      }
    });
}

/** The builds the store holds, by state, read through `discover --json` as a user would. */
async function releaseStates(): Promise<Map<string, string>> {
  const result = await cli('discover', '--json');
  assert.equal(result.code, 0, result.stderr);
  const [listing] = JSON.parse(result.stdout) as Array<{ releases: Array<{ tag: string; state: string }> }>;
  return new Map(listing!.releases.map((r) => [r.tag, r.state]));
}

interface RunningBuild {
  /** stderr so far: the JSON progress lines. */
  stderr(): string;
  result: Promise<CliResult>;
}

/** `qpswatch build TAG` as a user starts it, with its stderr readable while it runs. */
function startBuild(config: string, tag: string): RunningBuild {
  const child = spawn(process.execPath, [join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'build', tag], {
    env: { PATH: process.env['PATH']!, HOME: root, QPSWATCH_LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { stderr: () => stderr, result };
}

/** Waits (up to 5 minutes) until `ready` holds, checking every 100 ms; fails with `what`. */
async function until(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (ready()) return;
    await sleep(100);
  }
  assert.fail(`timed out waiting: ${what}`);
}

/** The first build holds its host and key locks while the hold step runs in its worktree. */
async function holdingBuild(config: string, tag: string): Promise<RunningBuild> {
  const worktree = join(cacheDir, 'worktrees', await keyOf(tag));
  const first = startBuild(config, tag);
  await until(`the hold step of ${tag} runs`, () => processesWorkingUnder(worktree).some((p) => p.program === 'sleep'));
  return first;
}

function logMessages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => (JSON.parse(l) as { msg: string }).msg);
}

before(async () => {
  demo = await makeDemoUpstream(join(root, 'upstream'));
  // The slow tag's build step sleeps while the marker file exists; the escape tag's compiler error carries a
  // window-title sequence (ESC ] 0 ; ... BEL) and a clear-screen one (ESC [ 2 J).
  await tagRelease(SLOW_TAG, (dir) =>
    appendFileSync(
      join(dir, 'CMakeLists.txt'),
      `\nadd_custom_target(demo_slow_step ALL COMMAND sh -c "test ! -f ${slowMarker} || sleep 300" VERBATIM)\n`,
    ),
  );
  await tagRelease(ESCAPE_TAG, (dir) => appendFileSync(join(dir, 'launcher', 'mariadbd.c'), `\n#error "${ESCAPES}"\n`));
  for (const tag of HOLD_TAGS) {
    await tagRelease(tag, (dir) =>
      appendFileSync(
        join(dir, 'CMakeLists.txt'),
        `\nadd_custom_target(demo_hold_step ALL COMMAND sh -c "while test -f ` +
          `${holdMarker}; do sleep 0.1; done" VERBATIM)\n`,
      ),
    );
  }
  writeConfig(configFile());
});

after(() => {
  rmSync(holdMarker, { force: true }); // a build left holding (a failed assertion) ends its step and exits
  rmSync(root, { recursive: true, force: true });
});

describe('faults during builds', () => {
  test(
    'two builds of one tag at once: one builds, the other waits for it and ' +
      'finds it built; nothing stored as failed',
    async () => {
      const tag = HOLD_TAGS[0];
      writeFileSync(holdMarker, '');
      const first = await holdingBuild(configFile(), tag);
      // The second starts while the first holds the host: it waits for it, with one progress line naming it.
      const second = startBuild(configFile(), tag);
      await until('the second build waits', () =>
        logMessages(second.stderr()).some((m) => m.startsWith('waiting for')),
      );
      rmSync(holdMarker);
      const [a, b] = await Promise.all([first.result, second.result]);
      assert.equal(a.code, 0, a.stderr);
      assert.match(a.stdout, /^built "mariadb-10\.11\.22" in [\d.]+ s: /);
      assert.equal(b.code, 0, b.stderr);
      assert.match(b.stdout, /^"mariadb-10\.11\.22" is built already \(key [0-9a-f]{16}\)/);
      const key = await keyOf(tag);
      const waited = logMessages(b.stderr).filter((m) => m.startsWith('waiting for'));
      assert.equal(waited.length, 1, b.stderr);
      assert.match(
        waited[0]!,
        new RegExp(`^waiting for the host: the build of "mariadb-10\\.11\\.22" \\(key ${key}\\) by pid \\d+$`),
      );
      assert.equal((await releaseStates()).get(tag), 'built');
    },
  );

  test(
    'two builds of one key under different host locks (a daemon and a build ' +
      'by hand): the key lock makes the second wait',
    async () => {
      const tag = HOLD_TAGS[1];
      const other = writeConfig(join(root, 'other-lock.yaml'), { lock: join(root, 'other-host.lock') });
      writeFileSync(holdMarker, '');
      const first = await holdingBuild(configFile(), tag);
      // The second, under another host lock, starts while the first holds the key's lock: it must wait for that.
      const second = startBuild(other, tag);
      await until('the second build waits', () =>
        logMessages(second.stderr()).some((m) => m.startsWith('waiting for')),
      );
      rmSync(holdMarker);
      const [firstResult, secondResult] = await Promise.all([first.result, second.result]);
      assert.equal(firstResult.code, 0, firstResult.stderr);
      assert.match(firstResult.stdout, /^built "mariadb-10\.11\.23"/);
      assert.equal(secondResult.code, 0, secondResult.stderr);
      assert.match(secondResult.stdout, /^"mariadb-10\.11\.23" is built already/);
      const key = await keyOf(tag);
      const waited = logMessages(secondResult.stderr).filter((m) => m.startsWith('waiting for'));
      assert.deepEqual(
        waited.map((m) => m.replace(/pid \d+/, 'pid N')),
        [`waiting for the build of "mariadb-10.11.23" (key ${key}) by pid N`],
      );
      assert.equal((await releaseStates()).get(tag), 'built');
    },
  );

  test('a worktree folder a killed build left behind is repaired, by build and by build --retry', async () => {
    for (const tag of ['mariadb-10.11.9', 'mariadb-10.11.4']) {
      const worktree = join(cacheDir, 'worktrees', await keyOf(tag));
      mkdirSync(join(worktree, '.qpswatch-build'), { recursive: true });
      writeFileSync(join(worktree, '.qpswatch-build', 'CMakeCache.txt'), 'left by a build killed half way\n');
    }
    const good = await cli('build', 'mariadb-10.11.9');
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /^built "mariadb-10\.11\.9"/);
    assert.ok(logMessages(good.stderr).some((m) => m.startsWith('a worktree folder left by an earlier build')));
    // The broken tag: its first build fails for real; then a stale folder, and --retry builds (and fails) again: exit
    // 1, not 2.
    rmSync(join(cacheDir, 'worktrees', await keyOf('mariadb-10.11.4')), { recursive: true, force: true });
    assert.equal((await cli('build', 'mariadb-10.11.4')).code, 1);
    const worktree = join(cacheDir, 'worktrees', await keyOf('mariadb-10.11.4'));
    mkdirSync(worktree, { recursive: true });
    writeFileSync(join(worktree, 'left-over'), 'x');
    const retry = await cli('build', '--retry', 'mariadb-10.11.4');
    assert.equal(retry.code, 1, retry.stdout + retry.stderr);
    assert.match(retry.stdout, /^build of "mariadb-10\.11\.4" failed; log .*\n {2}.*expected/);
  });

  test('a build killed with SIGKILL half way: the next build stops the cmake it left running and builds', async () => {
    writeFileSync(slowMarker, '');
    const worktree = join(cacheDir, 'worktrees', await keyOf(SLOW_TAG));
    const child: ChildProcess = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'qpswatch.js'), '--config', configFile(), 'build', SLOW_TAG],
      { stdio: 'ignore', env: { PATH: process.env['PATH']!, HOME: root } },
    );
    try {
      let running: Array<{ pid: number; program: string }> = [];
      for (let i = 0; i < 1200 && !running.some((p) => p.program === 'sleep'); i++) {
        await sleep(100);
        running = processesWorkingUnder(worktree);
      }
      assert.ok(
        running.some((p) => p.program === 'sleep'),
        'the slow build step runs',
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      await sleep(300);
      const left = processesWorkingUnder(worktree).map((p) => p.program);
      // cmake may die of its closed output pipe; make and the step it runs go on.
      assert.ok(
        left.includes('sleep') && left.some((p) => /make$/.test(p)),
        `a SIGKILL leaves the build running: ${left.join(' ')}`,
      );
      rmSync(slowMarker);
      const next = await cli('build', SLOW_TAG);
      assert.equal(next.code, 0, next.stderr);
      assert.match(next.stdout, new RegExp(`^built "${SLOW_TAG}"`));
      assert.ok(
        logMessages(next.stderr).some((m) => m.startsWith('a build killed earlier left cmake running')),
        `stderr: ${next.stderr}`,
      );
      assert.deepEqual(processesWorkingUnder(worktree), [], 'no cmake, make or compiler of the killed build is left');
      assert.equal((await releaseStates()).get(SLOW_TAG), 'built');
    } finally {
      rmSync(slowMarker, { force: true });
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      for (const p of processesWorkingUnder(root)) process.kill(p.pid, 'SIGKILL');
    }
  });

  test(
    'a compiler error with escape sequences: the lines the user sees, the ' + 'store and the log hold no ESC',
    async () => {
      const result = await cli('build', ESCAPE_TAG);
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stdout, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, 'stdout holds a control character');
      assert.doesNotMatch(result.stderr, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/, 'stderr holds a control character');
      const [, cause] = result.stdout.split('\n');
      assert.match(cause!, /error: #error "\\x1b\]0;pwned-title\\x07\\x1b\[2J"/);
      const again = await cli('build', ESCAPE_TAG);
      assert.equal(again.code, 1);
      assert.match(
        again.stdout,
        /failed before and was not retried[^\n]*\n {2}.*#error "\\x1b\]0;pwned-title\\x07\\x1b\[2J"/,
      );
      assert.equal((await releaseStates()).get(ESCAPE_TAG), 'build failed');
    },
  );

  test(
    'a full disk during a build: one clear line, stored as a build failure ' +
      'naming the full disk, nothing else lost',
    async (t) => {
      const small = join(root, 'small-cache');
      mkdirSync(small);
      const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=40m,mode=0755', 'tmpfs', small], {
        encoding: 'utf8',
      });
      if (mount.status !== 0)
        return t.skip(
          `mount -t tmpfs is not permitted here ` +
            `(${(mount.stderr || mount.error?.message || '').trim()}): the ` +
            `full-disk fault needs root and mount`,
        );
      try {
        const file = writeConfig(join(root, 'small.yaml'), { cache: small });
        // A first build fills the small cache's mirror and ccache; then the disk is filled up to half a megabyte:
        // the next release's checkout fits, its build folder (1.5 MB) does not.
        const first = await runCli(['--config', file, 'build', demo.slowTag]);
        assert.equal(first.code, 0, first.stderr);
        const before = await releaseStates();
        const fill = statfsSync(small);
        writeFileSync(join(small, 'filler'), Buffer.alloc(Math.max(0, fill.bavail * fill.bsize - 512 * 1024)));
        const result = await runCli(['--config', file, 'build', 'mariadb-10.11.10']);
        assert.equal(result.code, 1, result.stdout + result.stderr);
        const lines = result.stdout.split('\n');
        assert.match(lines[0]!, /^build of "mariadb-10\.11\.10" failed; log /);
        assert.ok(
          lines.slice(1).some((l) => /No space left on device/.test(l)),
          result.stdout,
        );
        assert.deepEqual(messageLines(result.stderr), []);
        const after = await releaseStates();
        assert.equal(after.get('mariadb-10.11.10'), 'build failed');
        for (const [tag, state] of before)
          if (tag !== 'mariadb-10.11.10') assert.equal(after.get(tag), state, `${tag} kept its state`);
        t.diagnostic(result.stdout.trim());
      } finally {
        for (const p of processesWorkingUnder(small)) process.kill(p.pid, 'SIGKILL');
        spawnSync('umount', [small]);
        rmSync(small, { recursive: true, force: true });
      }
    },
  );
});
