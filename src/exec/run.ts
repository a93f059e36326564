import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Logger } from '../log/index.js';
import { ExecError, ExecNotFoundError, ExecTimeoutError } from './errors.js';
import { OutputCollector } from './output.js';
import { forgetGroup, reapWithParent } from './reaper.js';

export interface RunOptions {
  /** argv[0] is the program: an absolute path or a name looked up on PATH. Never a shell. */
  argv: readonly string[];
  /** The whole environment of the child; by default a small fixed one (see defaultEnv). */
  env?: Record<string, string>;
  cwd?: string;
  /** Default 10 minutes; then SIGTERM to the process group, then SIGKILL after killGraceMs. */
  timeoutMs?: number;
  killGraceMs?: number;
  /** stdout and stderr are appended here too, so a long build or server log survives the process. */
  logFile?: string;
  input?: string;
  signal?: AbortSignal;
  /** Resolve with a non-zero exit instead of throwing ExecError. */
  allowFailure?: boolean;
  /** Lines kept for error messages. */
  tailLines?: number;
  /** Told of each chunk of stdout and stderr as it arrives (a build's progress lines); it must not throw. */
  onOutput?: (text: string) => void;
  /**
   * Where the exit (debug) and a SIGKILL after an ignored SIGTERM (warn) are logged, as component exec; none when left
   * out.
   */
  log?: Logger;
  /**
   * The child's process group is killed when qpswatch dies, however it dies (reaper.ts): for servers and sysbench,
   * which would otherwise run on after a SIGKILL, holding a datadir and a password file. Builds leave it off (a build
   * killed half way is stopped by the next one, with a line saying so).
   */
  dieWithParent?: boolean;
}

export interface RunResult {
  argv: string[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  tail: string[];
  durationMs: number;
}

export interface ChildHandle {
  pid: number;
  /** Settles when the child exits: resolves for exit 0 (or any exit with allowFailure), rejects otherwise. */
  exited: Promise<RunResult>;
  /** SIGTERM to the group, then SIGKILL after graceMs; resolves when the child is gone, whatever its exit. */
  stop(graceMs?: number): Promise<RunResult>;
  /** SIGSTOP to the group: it uses no CPU and does nothing until resumed (the idle server of a paired session). */
  pause(): void;
  /** SIGCONT to the group. */
  resume(): void;
  /** SIGINT to the group: how `perf stat` is told to stop counting and print what it counted. */
  interrupt(): void;
  tail(): string[];
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_GRACE_MS = 10 * 1000;
const MAX_CAPTURED_BYTES = 8 * 1024 * 1024;

/** The environment a child gets unless the caller names one: nothing of the daemon's secrets leaks into it. */
export function defaultEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: parent['PATH'] ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: parent['HOME'] ?? '/',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
  };
}

/** Runs a program to its end and returns its output. An already aborted signal rejects without starting it. */
export async function run(opts: RunOptions): Promise<RunResult> {
  return start(opts).exited;
}

/** Starts a program that runs on (a server); the handle stops it by escalation. Throws if the signal is aborted. */
export function start(opts: RunOptions): ChildHandle {
  // Work asked to stop must not begin: a Ctrl-C during a load would otherwise still run every step after it.
  opts.signal?.throwIfAborted();
  return new Child(opts).handle();
}

class Child {
  private readonly argv: string[];
  private readonly stdout: OutputCollector;
  private readonly stderr: OutputCollector;
  private readonly combined: OutputCollector;
  private readonly log?: WriteStream;
  private readonly logger: Logger | undefined;
  private readonly child: ChildProcess;
  private readonly started = Date.now();
  private timedOut = false;
  /** Stopped by pause() and not resumed since. */
  private paused = false;
  private stopping?: Promise<RunResult>;
  private readonly settled: Promise<RunResult>;
  private timer?: NodeJS.Timeout;

  constructor(private readonly opts: RunOptions) {
    if (opts.argv.length === 0 || opts.argv[0] === '') throw new TypeError('exec: argv must name a program');
    this.argv = [...opts.argv];
    const tailLines = opts.tailLines ?? 30;
    this.stdout = new OutputCollector(MAX_CAPTURED_BYTES, tailLines);
    this.stderr = new OutputCollector(MAX_CAPTURED_BYTES, tailLines);
    this.combined = new OutputCollector(0, tailLines);
    if (opts.logFile !== undefined) this.log = createWriteStream(opts.logFile, { flags: 'a' });
    this.logger = opts.log?.child({ component: 'exec' });
    this.child = spawn(this.argv[0]!, this.argv.slice(1), {
      // Not the caller's folder: a program that looks in its working folder (sysbench's Lua require looks in ./ first)
      // must not find files another user put there.
      cwd: opts.cwd ?? '/',
      env: opts.env ?? defaultEnv(),
      // Its own process group, so a timeout or a stop reaches every grandchild (mysqld_safe, cmake's make jobs).
      detached: true,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      shell: false,
    });
    if (this.child.pid !== undefined) {
      liveGroups.add(this.child.pid);
      if (opts.dieWithParent === true) reapWithParent(this.child.pid);
    }
    this.settled = this.watch();
  }

  handle(): ChildHandle {
    const exited = this.settled.then((result) => this.judge(result));
    // The handle's owner may only ever call stop(); an unobserved rejection must not crash the process.
    exited.catch(() => undefined);
    return {
      pid: this.child.pid ?? -1,
      exited,
      stop: (graceMs) => this.stop(graceMs ?? this.opts.killGraceMs ?? DEFAULT_GRACE_MS),
      pause: () => {
        this.paused = true;
        this.signalGroup('SIGSTOP');
      },
      resume: () => {
        if (!this.paused) return;
        this.paused = false;
        this.signalGroup('SIGCONT');
      },
      interrupt: () => this.signalGroup('SIGINT'),
      tail: () => this.combined.tail(),
    };
  }

  private watch(): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      this.child.stdout?.setEncoding('utf8').on('data', (d: string) => this.take(d, this.stdout));
      this.child.stderr?.setEncoding('utf8').on('data', (d: string) => this.take(d, this.stderr));
      if (this.opts.input !== undefined) this.child.stdin?.end(this.opts.input);
      this.child.on('error', (err: NodeJS.ErrnoException) => {
        this.clearTimer();
        this.opts.signal?.removeEventListener('abort', this.onAbort);
        if (err.code === 'ENOENT') reject(new ExecNotFoundError(this.argv[0]!, this.argv));
        else
          reject(
            new ExecError(
              `${this.argv[0]} could not start: ${err.message}`,
              this.argv,
              null,
              null,
              [],
              this.opts.logFile,
            ),
          );
      });
      this.child.on('close', (code, signal) => {
        if (this.child.pid !== undefined) {
          liveGroups.delete(this.child.pid);
          if (this.opts.dieWithParent === true) forgetGroup(this.child.pid);
        }
        this.clearTimer();
        this.opts.signal?.removeEventListener('abort', this.onAbort);
        const done = (): void => resolve(this.result(code, signal));
        // Callers read the log file right after the child ends, so it must be flushed first.
        if (this.log === undefined) done();
        else this.log.end(done);
      });
      const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.stop(this.opts.killGraceMs ?? DEFAULT_GRACE_MS);
      }, timeoutMs);
      this.timer.unref();
      this.opts.signal?.addEventListener('abort', this.onAbort, { once: true });
    });
  }

  /** Removed when the child ends, so a long-lived signal (the daemon's) holds no finished child. */
  private readonly onAbort = (): void => void this.stop(this.opts.killGraceMs ?? DEFAULT_GRACE_MS);

  private take(text: string, into: OutputCollector): void {
    into.push(text);
    this.combined.push(text);
    this.log?.write(text);
    this.opts.onOutput?.(text);
  }

  private result(code: number | null, signal: NodeJS.Signals | null): RunResult {
    const durationMs = Date.now() - this.started;
    this.logger?.debug({ argv: this.argv, exitCode: code, signal, durationMs }, 'child exited');
    return {
      argv: this.argv,
      exitCode: code,
      signal,
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      tail: this.combined.tail(),
      durationMs,
    };
  }

  private judge(result: RunResult): RunResult {
    if (this.timedOut) {
      throw new ExecTimeoutError(
        this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        this.argv,
        result.signal,
        result.tail,
        this.opts.logFile,
      );
    }
    if (result.exitCode === 0 || this.opts.allowFailure === true) return result;
    const how = result.signal !== null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    const last = result.tail.at(-1);
    const message = `${this.argv[0]} ${how}` + (last !== undefined ? `: ${last}` : '');
    throw new ExecError(message, this.argv, result.exitCode, result.signal, result.tail, this.opts.logFile);
  }

  private stop(graceMs: number): Promise<RunResult> {
    this.stopping ??= this.escalate(graceMs);
    return this.stopping;
  }

  private async escalate(graceMs: number): Promise<RunResult> {
    const settledQuietly = this.settled.catch((err: unknown) => this.failedStart(err));
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined)
      return settledQuietly;
    this.signalGroup('SIGTERM');
    // A group this handle paused would hold SIGTERM until it runs again; one stopped by anyone else is left to SIGKILL.
    if (this.paused) this.signalGroup('SIGCONT');
    const gone = await Promise.race([settledQuietly.then(() => true), delay(graceMs).then(() => false)]);
    if (!gone) {
      this.logger?.warn({ argv: this.argv, graceMs }, 'child ignored SIGTERM; sending SIGKILL');
      this.signalGroup('SIGKILL');
    }
    return settledQuietly;
  }

  private failedStart(err: unknown): RunResult {
    const message = err instanceof Error ? err.message : String(err);
    return {
      argv: this.argv,
      exitCode: null,
      signal: null,
      stdout: '',
      stderr: message,
      tail: [message],
      durationMs: Date.now() - this.started,
    };
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone: nothing left to stop.
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}

/** The process groups of the children still running: what a hurried exit must not leave behind. */
const liveGroups = new Set<number>();

/**
 * Kills every child's whole process group at once with SIGKILL (which also ends a stopped one), synchronously:
 * for an exit that cannot wait for the graceful stop, such as a second Ctrl-C. mysqld, sysbench and cmake run in
 * groups of their own, so without this they would run on after qpswatch is gone. Returns how many groups it hit.
 */
export function killAllChildren(): number {
  let hit = 0;
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
      hit += 1;
    } catch {
      // Gone already.
    }
  }
  liveGroups.clear();
  return hit;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
