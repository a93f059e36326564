import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BuildAbortedError,
  BuildFailedError,
  BuildToolMissingError,
  buildWorktree,
  parseBuildProfile,
  type BuildProgress,
  type BuildWorktreeOptions,
} from '../../src/compile/index.js';
import { run } from '../../src/exec/index.js';
import { silentLog } from '../helpers/silent-log.js';

let root = '';
let counter = 0;

const HELLO_C = '#include <stdio.h>\nint main(void) { puts("hello " HELLO_WHO); return 0; }\n';

/** A one-file CMake project; `extra` goes at the end of its CMakeLists.txt. */
async function project(extra = ''): Promise<string> {
  const dir = join(root, `p${++counter}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'hello.c'), HELLO_C);
  await writeFile(
    join(dir, 'CMakeLists.txt'),
    [
      'cmake_minimum_required(VERSION 3.16)',
      'project(hello C)',
      'add_executable(hello hello.c)',
      'target_compile_definitions(hello PRIVATE "HELLO_WHO=\\"${HELLO_WHO}\\"")',
      'install(TARGETS hello RUNTIME DESTINATION bin)',
      extra,
      '',
    ].join('\n'),
  );
  return dir;
}

function options(
  worktree: string,
  profileYaml: string,
  extra: Partial<BuildWorktreeOptions> = {},
): BuildWorktreeOptions {
  const profile = parseBuildProfile(`description: test\n${profileYaml}`, 'test', join(root, 'test.yaml'));
  return {
    worktree,
    profile,
    buildDir: join(worktree, '.qpswatch-build'),
    installDir: join(worktree, 'install'),
    logFile: join(worktree, 'build.log'),
    cacheDir: join(root, 'cache'),
    log: silentLog,
    ...extra,
  };
}

before(async () => {
  root = await mkdtemp('/tmp/qpsw-bwt-');
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('buildWorktree', () => {
  test('configures, builds and installs with Ninja, the profile flags and env, and reports each step', async () => {
    const worktree = await project('set(SEEN_MARK "$ENV{QPSW_MARK}" CACHE STRING "")');
    const progress: BuildProgress[] = [];
    const opts = options(
      worktree,
      'generator: Ninja\njobs: 2\ncmake_flags: [-DHELLO_WHO=qpswatch]\nenv: { QPSW_MARK: from-profile }\n',
      { onProgress: (p) => progress.push(p) },
    );
    const result = await buildWorktree(opts);
    assert.equal(result.jobs, 2);
    assert.deepEqual(Object.keys(result.durationsMs), ['configure', 'build', 'install']);
    const steps = progress.filter((p) => p.event !== 'progress');
    assert.deepEqual(
      steps.map((p) => `${p.phase}:${p.event}`),
      ['configure:start', 'configure:end', 'build:start', 'build:end', 'install:start', 'install:end'],
    );
    assert.deepEqual(steps[2]!.argv, ['cmake', '--build', opts.buildDir, '-j', '2']);
    // ninja's [n/m] lines, read as the build runs: only forward, the last one the whole build.
    const ratios = progress.filter((p) => p.event === 'progress').map((p) => p.compile!.ratio);
    assert.ok(ratios.length > 0, 'the compile reported its progress');
    assert.deepEqual(
      [...ratios].sort((a, b) => a - b),
      ratios,
    );
    assert.equal(ratios.at(-1), 1);
    const hello = await run({ argv: [join(opts.installDir, 'bin', 'hello')] });
    assert.equal(hello.stdout, 'hello qpswatch\n');
    const cache = await readFile(join(opts.buildDir, 'CMakeCache.txt'), 'utf8');
    assert.match(cache, /CMAKE_GENERATOR:INTERNAL=Ninja/);
    assert.match(cache, /SEEN_MARK:STRING=from-profile/);
    const log = await readFile(opts.logFile, 'utf8');
    assert.match(log, /=== qpswatch configure: cmake -S /);
    assert.match(log, /=== qpswatch install: cmake --install /);
  });

  test('a configure error fails in configure with the CMake error lines', async () => {
    const worktree = await project('message(FATAL_ERROR "needs libfoo: install libfoo-dev")');
    await assert.rejects(buildWorktree(options(worktree, '')), (err: unknown) => {
      assert.ok(err instanceof BuildFailedError, String(err));
      assert.equal(err.failure.phase, 'configure');
      assert.equal(err.failure.exitCode, 1);
      assert.deepEqual(err.failure.failureLines, [
        'CMake Error at CMakeLists.txt:6 (message):',
        'needs libfoo: install libfoo-dev',
      ]);
      assert.match(
        err.message,
        /failed in configure: cmake exited with code 1: CMake Error at CMakeLists\.txt:6 \(message\):; full log: /,
      );
      return true;
    });
  });

  test('an install error fails in install', async () => {
    const worktree = await project('install(CODE "message(FATAL_ERROR \\"disk says no\\")")');
    await assert.rejects(buildWorktree(options(worktree, '')), (err: unknown) => {
      assert.ok(err instanceof BuildFailedError, String(err));
      assert.equal(err.failure.phase, 'install');
      assert.ok(
        err.failure.lines.some((l) => l.includes('disk says no')),
        err.failure.lines.join('\n'),
      );
      return true;
    });
  });

  test("the profile's time limit stops a step that hangs, with its whole process group", async () => {
    // An odd duration, so that pgrep finds only this test's sleep.
    const worktree = await project('execute_process(COMMAND sleep 97.3)');
    const started = Date.now();
    // 0.02 minutes: 1.2 seconds for the whole build.
    await assert.rejects(buildWorktree(options(worktree, 'timeout_minutes: 0.02\n')), (err: unknown) => {
      assert.ok(err instanceof BuildFailedError, String(err));
      assert.equal(err.failure.phase, 'configure');
      assert.equal(err.failure.timedOut, true);
      assert.match(err.message, /failed in configure: cmake ran out of time/);
      return true;
    });
    assert.ok(Date.now() - started < 15_000);
    const sleeping = await run({ argv: ['pgrep', '-f', 'sleep 97.3'], allowFailure: true });
    assert.equal(sleeping.stdout.trim(), '', 'no sleep left behind');
  });

  test('an abort stops the build and says so, not a build failure', async () => {
    const worktree = await project('execute_process(COMMAND sleep 97.4)');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await assert.rejects(buildWorktree(options(worktree, '', { signal: controller.signal })), (err: unknown) => {
      assert.ok(err instanceof BuildAbortedError, String(err));
      assert.equal(err.phase, 'configure');
      return true;
    });
    const sleeping = await run({ argv: ['pgrep', '-f', 'sleep 97.4'], allowFailure: true });
    assert.equal(sleeping.stdout.trim(), '', 'no sleep left behind');
  });

  test('a missing tool is bad input naming the Debian package', async () => {
    const worktree = await project();
    await assert.rejects(buildWorktree(options(worktree, 'env: { PATH: /nonexistent }\n')), (err: unknown) => {
      assert.ok(err instanceof BuildToolMissingError);
      assert.equal(
        err.message,
        "cmake not found on PATH: install it (Debian: apt-get install cmake) or fix PATH in the build profile's env",
      );
      return true;
    });
    await assert.rejects(access(join(worktree, '.qpswatch-build')));
  });
});
