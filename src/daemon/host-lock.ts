import { InputError } from '../errors.js';
import {
  describeHolder,
  fileOwner,
  LockFileError,
  processAlive,
  StaleLockError,
  tryPidLock,
  waitForPidLock,
  type HolderLiveness,
  type PidLock,
  type PidLockHolder,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { printable } from '../report/index.js';

export { processAlive };

/** A live process holds the lock: a daemon, or a compare, check or build run by hand. Two benchmarks on one host falsify both. */
export class HostLockHeldError extends InputError {
  constructor(
    readonly path: string,
    readonly pid: number,
    readonly startedAt: string,
    /** The qpswatch command that holds it; undefined: a daemon (`once` too), which holds it for as long as it runs. */
    readonly command?: string,
  ) {
    super(
      command === undefined
        ? `host lock ${path} is held by pid ${pid} (started ${startedAt}): another qpswatch daemon is benchmarking on this host; stop it (systemctl stop qpswatch) or set host_lock`
        : `host lock ${path} is held by pid ${pid} (qpswatch ${command}, started ${startedAt}): it is benchmarking or building on this host; wait for it to end, or set host_lock`,
    );
  }
}

/** The lock file cannot be made at all (no folder, no permission). */
export class HostLockError extends InputError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`host lock ${path} cannot be created (${code}): make its folder writable for this user, or set host_lock to a file in a folder that is (systemd: RuntimeDirectory)`);
  }
}

/**
 * The lock file names no live daemon (empty, not a lock, or its process is gone) but this user may not remove it:
 * another user made it in a sticky folder such as /run/lock. Names the file, its owner and the fix.
 */
export class HostLockStuckError extends InputError {
  constructor(
    readonly path: string,
    readonly owner: string,
    readonly why: string,
    readonly code: string,
  ) {
    super(
      `host lock ${path} names no running qpswatch (${why}) but cannot be removed (${code}): it belongs to ${owner}; ` +
        `remove it as root (sudo rm ${path}) or as its owner, or set host_lock to a file in a folder other users cannot write`,
    );
  }
}

export type HostLock = PidLock;

export interface LockOptions {
  /** For tests: the pid written (default this process, with its start time). */
  pid?: number;
  now?: () => Date;
  /** Whether the holder named in a lock file runs still (default: its pid and its start time, from /proc). */
  isAlive?: HolderLiveness;
}

/**
 * Takes the host lock for a daemon (or `once`), at once or not at all: a file created with O_EXCL that holds the
 * pid, start time and process start ticks of its holder (exec's pid lock). A file that names no live process is
 * stale and taken over; one whose holder runs is a HostLockHeldError.
 */
export function acquireHostLock(path: string, opts: LockOptions = {}): HostLock {
  const attempt = withHostLockErrors(path, () => tryPidLock(path, opts));
  if ('holder' in attempt) throw heldError(path, attempt.holder);
  return attempt.lock;
}

export interface WaitForHostOptions extends LockOptions {
  /** The command taking it (compare, check, build): written to the file, named to whoever finds it held. */
  command: string;
  /** What it does, for those who wait: "a compare session", `the build of "mariadb-10.11.1" (key ...)`. */
  holds: string;
  signal?: AbortSignal;
  pollMs?: number;
  /** Where the one progress line per holder waited for goes: "waiting for the host: a compare session by pid N". */
  log: Logger;
}

/**
 * Takes the host lock for a command that runs to an end (compare, check, a build by hand), waiting while another
 * such command holds it; a daemon holds it for as long as it runs, so one of those is a HostLockHeldError at once.
 */
export async function waitForHostLock(path: string, opts: WaitForHostOptions): Promise<HostLock> {
  const refuse = (holder: PidLockHolder): Error | undefined => (holder.command === undefined ? heldError(path, holder) : undefined);
  const onWait = (holder: PidLockHolder): void => opts.log.info({ holderPid: holder.pid, hostLock: path }, `waiting for the host: ${printable(describeHolder(holder))}`);
  const { log: _log, ...lockOptions } = opts;
  try {
    return await waitForPidLock(path, { ...lockOptions, refuse, onWait });
  } catch (err) {
    throw hostLockError(path, err);
  }
}

function heldError(path: string, holder: PidLockHolder): HostLockHeldError {
  return new HostLockHeldError(path, holder.pid, printable(holder.startedAt), holder.command === undefined ? undefined : printable(holder.command));
}

function withHostLockErrors<T>(path: string, take: () => T): T {
  try {
    return take();
  } catch (err) {
    throw hostLockError(path, err);
  }
}

/** exec's lock errors in the host lock's words: the file, its owner and the fix. */
function hostLockError(path: string, err: unknown): unknown {
  if (err instanceof LockFileError) return new HostLockError(path, err.code);
  if (err instanceof StaleLockError) return new HostLockStuckError(path, fileOwner(path), err.why, err.code);
  return err;
}
