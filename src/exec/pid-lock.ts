import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive, processStartMs, processStartTicks, userName } from './process-info.js';

/**
 * A lock file named by a process: created with O_EXCL, it holds the pid and process start time of its holder, and
 * is stale (taken over) once that process is gone. The host lock and the per-key build lock are both such files.
 */

/** What the file holds: the holder's pid, when it took the lock, its process start time, and what it does. */
export interface PidLockHolder {
  pid: number;
  startedAt: string;
  /** field 22 of /proc/PID/stat: with the pid, it names the process (pids are reused) */
  startTicks?: number;
  /** What the holder does, for those who wait: `the build of "mariadb-10.11.1" (key 1a2b3c4d5e6f7a8b)` */
  holds?: string;
  /** The qpswatch command that holds it (build, compare, check); none: a daemon (or an older qpswatch) */
  command?: string;
}

/** Whether the holder named in a lock file runs still. */
export type HolderLiveness = (pid: number, startTicks: number | undefined, startedAt: string) => boolean;

export interface PidLockOptions {
  /** For tests: the pid written (default this process, with its start time). */
  pid?: number;
  now?: () => Date;
  /** Default: the pid runs and is the same process (its start time, from /proc). */
  isAlive?: HolderLiveness;
  holds?: string;
  command?: string;
}

export interface PidLock {
  readonly path: string;
  /** Removes the file if it is still ours; idempotent. */
  release(): void;
}

export type LockAttempt = { lock: PidLock } | { holder: PidLockHolder };

/** The lock file cannot be created (no folder, no permission): `code` is the errno. */
export class LockFileError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`lock file ${path} cannot be created (${code})`);
    this.name = new.target.name;
  }
}

/** A lock file that names no live holder, but this user may not remove it (another user's, in a sticky folder). */
export class StaleLockError extends Error {
  constructor(
    readonly path: string,
    /** Why it is stale, in words. */
    readonly why: string,
    readonly code: string,
  ) {
    super(`lock file ${path} names no running process (${why}) but cannot be removed (${code})`);
    this.name = new.target.name;
  }
}

/** The waiter's AbortSignal fired (Ctrl-C, SIGTERM) while another process held the lock. */
export class LockWaitAbortedError extends Error {
  constructor(
    readonly path: string,
    readonly holder: PidLockHolder,
  ) {
    super(`stopped while waiting for ${describeHolder(holder)} (lock ${path})`);
    this.name = new.target.name;
  }
}

/**
 * Takes the lock, or names the live process that holds it. A file that names no live process (its pid is gone or
 * now belongs to a process that started later, or the file is empty or garbled) is stale: it is removed and the
 * create tried again; a third process that wins that race holds the lock.
 */
export function tryPidLock(path: string, opts: PidLockOptions = {}): LockAttempt {
  const mine = ownContent(opts);
  const isAlive = opts.isAlive ?? holderAlive;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, mine)) return { lock: lockHandle(path, mine) };
    const holder = readPidLock(path);
    if (holder !== undefined && holder.pid !== mine.pid && isAlive(holder.pid, holder.startTicks, holder.startedAt)) return { holder };
    removeStale(path, holder);
  }
  return { holder: readPidLock(path) ?? { pid: 0, startedAt: 'unknown: the file keeps coming back' } };
}

export interface WaitOptions extends PidLockOptions {
  signal?: AbortSignal;
  /** How often the file is tried again (default 1 s). */
  pollMs?: number;
  /** Called once per holder waited for: the place for one progress line. */
  onWait?: (holder: PidLockHolder) => void;
  /** A holder not worth waiting for (one that holds the lock for good): the error to throw instead. */
  refuse?: (holder: PidLockHolder) => Error | undefined;
}

/** Takes the lock, waiting while a live process holds it; the signal stops the wait (LockWaitAbortedError). */
export async function waitForPidLock(path: string, opts: WaitOptions = {}): Promise<PidLock> {
  let told: PidLockHolder | undefined;
  for (;;) {
    const attempt = tryPidLock(path, opts);
    if ('lock' in attempt) return attempt.lock;
    const { holder } = attempt;
    const refusal = opts.refuse?.(holder);
    if (refusal !== undefined) throw refusal;
    if (told?.pid !== holder.pid || told.startedAt !== holder.startedAt) opts.onWait?.(holder);
    told = holder;
    if (opts.signal?.aborted === true) throw new LockWaitAbortedError(path, holder);
    try {
      await sleep(opts.pollMs ?? 1000, undefined, opts.signal !== undefined ? { signal: opts.signal } : {});
    } catch {
      throw new LockWaitAbortedError(path, holder);
    }
  }
}

/** "the build of ... by pid 123" or "pid 123 (started ...)": who holds a lock, for people. */
export function describeHolder(holder: PidLockHolder): string {
  return holder.holds !== undefined ? `${holder.holds} by pid ${holder.pid}` : `pid ${holder.pid} (started ${holder.startedAt})`;
}

/**
 * The holder runs still: its pid is alive and is the same process. With start ticks they must match; a lock of an
 * older qpswatch has none, and then a process that started after the lock was written is not its writer.
 */
export function holderAlive(pid: number, startTicks: number | undefined, startedAt: string): boolean {
  if (startTicks !== undefined) return processAlive(pid, startTicks);
  if (!processAlive(pid)) return false;
  const started = processStartMs(pid);
  const locked = Date.parse(startedAt);
  // boot time is known to the second: a second of slack
  return started === undefined || !Number.isFinite(locked) || started <= locked + 1000;
}

/** undefined for a file that is not a lock (empty: a holder killed between create and write), or no file. */
export function readPidLock(path: string): PidLockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<PidLockHolder>;
    if (!(Number.isSafeInteger(value.pid) && (value.pid ?? 0) > 0 && typeof value.startedAt === 'string')) return undefined;
    const ticks = Number.isSafeInteger(value.startTicks) && (value.startTicks ?? -1) >= 0 ? value.startTicks : undefined;
    return {
      pid: value.pid!,
      startedAt: value.startedAt,
      ...(ticks !== undefined ? { startTicks: ticks } : {}),
      ...(typeof value.holds === 'string' ? { holds: value.holds } : {}),
      ...(typeof value.command === 'string' ? { command: value.command } : {}),
    };
  } catch {
    return undefined;
  }
}

/** "user nobody (uid 65534)", from /etc/passwd; the uid alone when it has no name. */
export function fileOwner(path: string): string {
  let uid: number;
  try {
    uid = statSync(path).uid;
  } catch {
    return 'an unknown user';
  }
  const name = userName(uid);
  return name === undefined ? `uid ${uid}` : `user ${name} (uid ${uid})`;
}

function ownContent(opts: PidLockOptions): PidLockHolder {
  const startTicks = opts.pid === undefined ? processStartTicks(process.pid) : undefined;
  return {
    pid: opts.pid ?? process.pid,
    startedAt: (opts.now ?? (() => new Date()))().toISOString(),
    ...(startTicks !== undefined ? { startTicks } : {}),
    ...(opts.holds !== undefined ? { holds: opts.holds } : {}),
    ...(opts.command !== undefined ? { command: opts.command } : {}),
  };
}

function create(path: string, content: PidLockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (code === 'EEXIST') return false;
    throw new LockFileError(path, code);
  }
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function lockHandle(path: string, mine: PidLockHolder): PidLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      const holder = readPidLock(path);
      if (holder?.pid === mine.pid && holder.startedAt === mine.startedAt) removeQuietly(path);
    },
  };
}

/** Removes a lock that names no live holder; one this user may not remove is a StaleLockError, never a wait. */
function removeStale(path: string, holder: PidLockHolder | undefined): void {
  try {
    unlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (code === 'ENOENT') return;
    const why = holder === undefined ? 'the file is empty or not a qpswatch lock' : `pid ${holder.pid} from ${holder.startedAt} is not running`;
    throw new StaleLockError(path, why, code);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}
