import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { ensureTrustedFolder, FolderNotMadeError } from '../trust/index.js';
import {
  describeHolder,
  LockFileError,
  LockFileRefusedError,
  LockUnreadableError,
  processAlive,
  tryPidLock,
  waitForPidLock,
  type PidLock,
  type PidLockHolder,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { printable } from '../report/index.js';

export { processAlive };

/**
 * A live process holds the lock: a daemon, or a compare, check or build run by hand. Two benchmarks on one host falsify
 * both.
 */
export class HostLockHeldError extends InputError {
  constructor(
    readonly path: string,
    /** 0: the file names nobody (another user's file its holder could not write, or one being written). */
    readonly pid: number,
    readonly startedAt: string,
    /** The qpswatch command that holds it; undefined: a daemon (`once` too), which holds it for as long as it runs. */
    readonly command?: string,
  ) {
    super(heldMessage(path, pid, startedAt, command));
  }
}

function heldMessage(path: string, pid: number, startedAt: string, command: string | undefined): string {
  if (pid === 0)
    return (
      `host lock ${path} is held by a process the file does not name ` +
      `(${startedAt}): see which with sudo fuser -v ${path}; stop it, or set ` +
      `host_lock`
    );
  return command === undefined
    ? `host lock ${path} is held by pid ${pid} (started ${startedAt}): ` +
        `another qpswatch daemon is benchmarking on this host; stop it ` +
        `(systemctl stop qpswatch) or set host_lock`
    : `host lock ${path} is held by pid ${pid} (qpswatch ${command}, started ` +
        `${startedAt}): it is benchmarking or building on this host; wait for ` +
        `it to end, or set host_lock`;
}

/** The lock file cannot be made at all (no folder, no permission). */
export class HostLockError extends InputError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      `host lock ${path} cannot be created (${code}): make its folder ` +
        `writable for this user, or set host_lock to a file in a folder that is ` +
        `(systemd: RuntimeDirectory)`,
    );
  }
}

/**
 * A file at the host lock's path that qpswatch does not use: a symbolic link, not a regular file, or a file of a
 * user who is neither root nor qpswatch's (any user may create files in a sticky folder such as /run/lock).
 */
export class HostLockRefusedError extends InputError {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(
      `host lock ${path} ${what}; remove it as root (sudo rm ${path}), or set ` +
        `host_lock to a file in a folder other users cannot write`,
    );
  }
}

/** A lock file this user may not open counts as held: names the file, its owner and how to check. */
export class HostLockUnreadableError extends InputError {
  constructor(
    readonly path: string,
    readonly owner: string,
    readonly code: string,
  ) {
    super(
      `host lock ${path} cannot be read by this user (${code}): it belongs to ${owner}, so it counts as held; ` +
        `see who holds it with sudo fuser -v ${path}, and if nothing does, remove it (sudo rm ${path})`,
    );
  }
}

export type HostLock = PidLock;

export interface LockOptions {
  /** For tests: the pid written (default this process, with its start time). */
  pid?: number;
  now?: () => Date;
  /** For tests: the service account's uid (default: user qpswatch's), whose lock files root's CLI trusts. */
  serviceUid?: number;
}

/**
 * Takes the host lock for a daemon (or `once`), at once or not at all: a file held with flock(2) that names its
 * holder (exec's pid lock). A file its holder left (killed) is taken over; one that is held is a HostLockHeldError.
 */
export function acquireHostLock(path: string, opts: LockOptions = {}): HostLock {
  prepareLockFolder(path);
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
  // A daemon's lock is refused; one that names nobody (another user's file its holder could not write) is waited for.
  const refuse = (holder: PidLockHolder): Error | undefined =>
    holder.command === undefined && holder.pid !== 0 ? heldError(path, holder) : undefined;
  const onWait = (holder: PidLockHolder): void =>
    opts.log.info(
      { holderPid: holder.pid, hostLock: path },
      `waiting for the host: ${printable(describeHolder(holder))}`,
    );
  const { log: _log, ...lockOptions } = opts;
  prepareLockFolder(path);
  try {
    return await waitForPidLock(path, { ...lockOptions, refuse, onWait });
  } catch (err) {
    throw hostLockError(path, err);
  }
}

/**
 * The folder of the lock is checked as qpswatch's own folders are (trust): root's or qpswatch's, nobody else may
 * write it or a folder above it. The default, /run/qpswatch (the unit's RuntimeDirectory), is made when missing
 * (0755: the service and the people who read who holds it pass through), so no other user can be there first; a
 * shared sticky folder such as /run/lock is still accepted when host_lock names one, and a file another user put
 * there is refused when it is opened.
 */
function prepareLockFolder(path: string): void {
  try {
    ensureTrustedFolder(
      dirname(resolve(path)),
      { what: 'host_lock folder', elsewhere: "set host_lock to a file in a folder of root's" },
      { stickyOk: true, mode: 0o755 },
    );
  } catch (err) {
    // The folder cannot be made by this user (not root, /run/qpswatch missing): the lock cannot be created.
    if (err instanceof FolderNotMadeError) throw new HostLockError(path, err.code);
    throw err;
  }
}

function heldError(path: string, holder: PidLockHolder): HostLockHeldError {
  return new HostLockHeldError(
    path,
    holder.pid,
    printable(holder.startedAt),
    holder.command === undefined ? undefined : printable(holder.command),
  );
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
  if (err instanceof LockFileRefusedError) return new HostLockRefusedError(path, err.what);
  if (err instanceof LockUnreadableError) return new HostLockUnreadableError(path, err.owner, err.code);
  return err;
}
