import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { InputError } from '../errors.js';
import { processAlive, processStartMs, processStartTicks } from '../exec/index.js';

export { processAlive };

/** Another daemon (alive) holds the lock: two daemons must never benchmark on one host at once. */
export class HostLockHeldError extends InputError {
  constructor(
    readonly path: string,
    readonly pid: number,
    readonly startedAt: string,
  ) {
    super(`host lock ${path} is held by pid ${pid} (started ${startedAt}): another qpswatch daemon is benchmarking on this host; stop it (systemctl stop qpswatch) or set host_lock`);
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

export interface HostLock {
  readonly path: string;
  /** Removes the file if it is still ours; idempotent. */
  release(): void;
}

export interface LockOptions {
  /** For tests: the pid written (default this process, with its start time). */
  pid?: number;
  now?: () => Date;
  /** Whether the holder named in a lock file runs still (default: its pid and its start time, from /proc). */
  isAlive?: (pid: number, startTicks: number | undefined, startedAt: string) => boolean;
}

/** What the file holds: the daemon's pid, when it took the lock, and its process start time (field 22 of /proc/PID/stat). */
interface LockContent {
  pid: number;
  startedAt: string;
  startTicks?: number;
}

/**
 * Takes the host lock: a file created with O_EXCL that holds the pid, start time and process start ticks of its
 * daemon. A file that names no live daemon (its pid is gone or now belongs to a process that started later, or
 * the file is empty or garbled) is stale and taken over; one whose daemon runs is a HostLockHeldError.
 */
export function acquireHostLock(path: string, opts: LockOptions = {}): HostLock {
  const pid = opts.pid ?? process.pid;
  const startTicks = opts.pid === undefined ? processStartTicks(process.pid) : undefined;
  const mine: LockContent = { pid, startedAt: (opts.now ?? (() => new Date()))().toISOString(), ...(startTicks !== undefined ? { startTicks } : {}) };
  const isAlive = opts.isAlive ?? holderAlive;
  // A stale file is removed and the create tried again; a third daemon that wins that race holds the lock.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(path, mine)) return lockHandle(path, mine);
    const holder = readLock(path);
    if (holder !== undefined && holder.pid !== mine.pid && isAlive(holder.pid, holder.startTicks, holder.startedAt)) {
      throw new HostLockHeldError(path, holder.pid, holder.startedAt);
    }
    removeStale(path, holder);
  }
  const holder = readLock(path);
  throw new HostLockHeldError(path, holder?.pid ?? 0, holder?.startedAt ?? 'unknown: the file keeps coming back');
}

/**
 * The holder runs still: its pid is alive and is the same process. With start ticks they must match; a lock of an
 * older qpswatch has none, and then a process that started after the lock was written is not its writer.
 */
function holderAlive(pid: number, startTicks: number | undefined, startedAt: string): boolean {
  if (startTicks !== undefined) return processAlive(pid, startTicks);
  if (!processAlive(pid)) return false;
  const started = processStartMs(pid);
  const locked = Date.parse(startedAt);
  // boot time is known to the second: a second of slack
  return started === undefined || !Number.isFinite(locked) || started <= locked + 1000;
}

function create(path: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (code === 'EEXIST') return false;
    throw new HostLockError(path, code);
  }
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** undefined for a file that is not a lock of ours (empty: a daemon killed between create and write). */
function readLock(path: string): LockContent | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>;
    if (!(Number.isSafeInteger(value.pid) && (value.pid ?? 0) > 0 && typeof value.startedAt === 'string')) return undefined;
    const ticks = Number.isSafeInteger(value.startTicks) && (value.startTicks ?? -1) >= 0 ? value.startTicks : undefined;
    return { pid: value.pid!, startedAt: value.startedAt, ...(ticks !== undefined ? { startTicks: ticks } : {}) };
  } catch {
    return undefined;
  }
}

function lockHandle(path: string, mine: LockContent): HostLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      const holder = readLock(path);
      if (holder?.pid === mine.pid && holder.startedAt === mine.startedAt) removeQuietly(path);
    },
  };
}

/** Removes a lock that names no live daemon; one this user may not remove is a HostLockStuckError, never a wait. */
function removeStale(path: string, holder: LockContent | undefined): void {
  try {
    unlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    if (code === 'ENOENT') return;
    const why = holder === undefined ? 'the file is empty or not a qpswatch lock' : `pid ${holder.pid} from ${holder.startedAt} is not running`;
    throw new HostLockStuckError(path, ownerOf(path), why, code);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

/** "user nobody (uid 65534)", from /etc/passwd; the uid alone when it has no name. */
function ownerOf(path: string): string {
  let uid: number;
  try {
    uid = statSync(path).uid;
  } catch {
    return 'an unknown user';
  }
  const name = userName(uid);
  return name === undefined ? `uid ${uid}` : `user ${name} (uid ${uid})`;
}

function userName(uid: number): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name !== undefined && name !== '' && Number(id) === uid) return name;
    }
  } catch {
    // No passwd file (a container): the uid says enough.
  }
  return undefined;
}
