import { appendFile, mkdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { defaultEnv, ExecNotFoundError, ExecTimeoutError, run, type RunResult } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { printable } from '../report/index.js';
import { ensureBuildPackages } from './build-packages.js';
import { buildEnv, cmakeCommands } from './cmake-argv.js';
import { pickFailureLines } from './failure-lines.js';
import { BUILD_PHASES, BuildAbortedError, BuildFailedError, BuildToolMissingError, type BuildPhase } from './errors.js';
import type { BuildProfile } from './profile.js';
import { compileProgressReader, type CompileProgress } from './progress.js';

export interface BuildProgress {
  readonly phase: BuildPhase;
  /** progress: the build step's tool printed a further [n/m] or percent (only ever forward). */
  readonly event: 'start' | 'progress' | 'end' | 'fail';
  readonly argv: readonly string[];
  /** Set on end and fail. */
  readonly durationMs?: number;
  /** Set on progress. */
  readonly compile?: CompileProgress;
}

export interface BuildWorktreeOptions {
  /** A checked-out source tree (a git worktree of the release's commit). */
  readonly worktree: string;
  readonly profile: BuildProfile;
  readonly buildDir: string;
  /** Emptied first, then filled by cmake --install. */
  readonly installDir: string;
  /** Output of every step is appended here. */
  readonly logFile: string;
  /** qpswatch's cache folder (ccache objects, `{cache_dir}` in cmake flags). */
  readonly cacheDir: string;
  /** The profile's missing Debian packages are installed with apt-get (install_build_packages); else named. */
  readonly installPackages?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BuildProgress) => void;
  /** Phases are logged as component build; each child's exit through exec. */
  readonly log: Logger;
}

export interface BuildResult {
  readonly durationsMs: Readonly<Record<BuildPhase, number>>;
  readonly totalMs: number;
  readonly jobs: number;
}

const TOOL_CHECK_MS = 30_000;
const TAIL_LINES = 40;

/**
 * cmake configure, build and install of one worktree, each through exec with the profile's environment, the
 * output appended to logFile, and one time limit (the profile's timeout_minutes) shared by the three steps.
 * A failing step throws BuildFailedError with the step, the exit and the lines that matter.
 */
export async function buildWorktree(options: BuildWorktreeOptions): Promise<BuildResult> {
  // cmake runs in the build folder: a relative path would then point somewhere else.
  const opts = {
    ...options,
    worktree: resolve(options.worktree),
    buildDir: resolve(options.buildDir),
    installDir: resolve(options.installDir),
    logFile: resolve(options.logFile),
    cacheDir: resolve(options.cacheDir),
  };
  const { profile } = opts;
  const jobs = profile.jobs ?? availableParallelism();
  const setup = {
    worktree: opts.worktree,
    buildDir: opts.buildDir,
    installDir: opts.installDir,
    cacheDir: opts.cacheDir,
    jobs,
  };
  const env = buildEnv(profile, setup, defaultEnv());
  const commands = cmakeCommands(profile, setup);
  await checkTools(profile, env, opts.log);
  await mkdir(dirname(opts.logFile), { recursive: true });
  await ensureBuildPackages({
    packages: profile.packages,
    install: opts.installPackages ?? false,
    logFile: opts.logFile,
    log: opts.log,
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  await mkdir(opts.buildDir, { recursive: true });
  await rm(opts.installDir, { recursive: true, force: true });
  if (profile.ccache) await mkdir(env['CCACHE_DIR']!, { recursive: true });

  const deadline = Date.now() + profile.timeoutMinutes * 60_000;
  const durations: Record<string, number> = {};
  const started = Date.now();
  for (const phase of BUILD_PHASES) {
    durations[phase] = await runPhase(opts, phase, commands[phase], env, deadline);
  }
  const totalMs = Date.now() - started;
  opts.log
    .child({ component: 'build' })
    .info({ worktree: opts.worktree, profile: profile.name, durationsMs: durations, totalMs }, 'build installed');
  return { durationsMs: durations as Record<BuildPhase, number>, totalMs, jobs };
}

async function runPhase(
  opts: BuildWorktreeOptions,
  phase: BuildPhase,
  argv: string[],
  env: Record<string, string>,
  deadline: number,
): Promise<number> {
  if (isAborted(opts.signal)) throw new BuildAbortedError(opts.worktree, phase);
  const log = opts.log.child({ component: 'build' });
  log.info({ phase, argv }, 'build phase started');
  opts.onProgress?.({ phase, event: 'start', argv });
  await appendFile(opts.logFile, `\n=== qpswatch ${phase}: ${argv.join(' ')}\n`);
  const started = Date.now();
  const failed = (): void => opts.onProgress?.({ phase, event: 'fail', argv, durationMs: Date.now() - started });
  const { onProgress } = opts;
  // Only the compile prints [n/m] or percents; cmake's configure and install lines are not progress.
  const onOutput =
    phase === 'build' && onProgress !== undefined
      ? compileProgressReader((compile) => onProgress({ phase, event: 'progress', argv, compile }))
      : undefined;
  const result = await run({
    argv,
    env,
    cwd: opts.buildDir,
    logFile: opts.logFile,
    timeoutMs: Math.max(1000, deadline - Date.now()),
    allowFailure: true,
    tailLines: TAIL_LINES,
    log: opts.log,
    ...(onOutput !== undefined ? { onOutput } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  }).catch((err: unknown) => {
    failed();
    throw thrownFailure(opts, phase, err);
  });
  const durationMs = Date.now() - started;
  if (result.exitCode === 0) {
    log.info({ phase, durationMs }, 'build phase done');
    opts.onProgress?.({ phase, event: 'end', argv, durationMs });
    return durationMs;
  }
  failed();
  if (isAborted(opts.signal)) throw new BuildAbortedError(opts.worktree, phase);
  const failureLines = pickFailureLines(`${result.stderr}\n${result.stdout}`);
  log.warn({ phase, exitCode: result.exitCode, signal: result.signal, first: failureLines[0] }, 'build phase failed');
  throw exitFailure(opts, phase, result, failureLines);
}

function exitFailure(
  opts: BuildWorktreeOptions,
  phase: BuildPhase,
  result: RunResult,
  failureLines: string[],
): BuildFailedError {
  return new BuildFailedError({
    worktree: opts.worktree,
    phase,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: false,
    lines: result.tail.map(printable),
    failureLines,
    logFile: opts.logFile,
  });
}

/** exec throws for a timeout and a program that is not there; anything else is not ours to translate. */
function thrownFailure(opts: BuildWorktreeOptions, phase: BuildPhase, err: unknown): unknown {
  if (err instanceof ExecTimeoutError) {
    return new BuildFailedError({
      worktree: opts.worktree,
      phase,
      exitCode: null,
      signal: err.signal,
      timedOut: true,
      lines: err.tail.map(printable),
      failureLines: [],
      logFile: opts.logFile,
    });
  }
  if (err instanceof ExecNotFoundError) return new BuildToolMissingError(err.program, 'cmake');
  return err;
}

/** Missing tools fail in a second with the package to install, instead of half way through a configure. */
async function checkTools(profile: BuildProfile, env: Record<string, string>, log: Logger): Promise<void> {
  const tools: Array<[string, string]> = [['cmake', 'cmake']];
  if (profile.generator === 'Ninja') tools.push(['ninja', 'ninja-build']);
  if (profile.generator === 'Unix Makefiles') tools.push(['make', 'make']);
  if (profile.ccache) tools.push(['ccache', 'ccache']);
  for (const [program, pkg] of tools) {
    try {
      await run({ argv: [program, '--version'], env, timeoutMs: TOOL_CHECK_MS, log });
    } catch (err) {
      if (err instanceof ExecNotFoundError) throw new BuildToolMissingError(program, pkg);
      throw err;
    }
  }
}

// A function, not an inline test: the signal changes while we await, which narrowing cannot know.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
