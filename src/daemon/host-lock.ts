import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { InputError } from '../errors.js';

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

export interface HostLock {
  readonly path: string;
  /** Removes the file if it is still ours; idempotent. */
  release(): void;
}

export interface LockOptions {
  pid?: number;
  now?: () => Date;
  isAlive?: (pid: number) => boolean;
}

interface LockContent {
  pid: number;
  startedAt: string;
}

/**
 * Takes the host lock: a file created with O_EXCL that holds the pid and start time of its daemon. A file left by
 * a daemon that died (its pid is gone) is taken over; one whose pid is alive is a HostLockHeldError.
 */
export function acquireHostLock(path: string, opts: LockOptions = {}): HostLock {
  const mine: LockContent = { pid: opts.pid ?? process.pid, startedAt: (opts.now ?? (() => new Date()))().toISOString() };
  const isAlive = opts.isAlive ?? processAlive;
  // Twice at most: the second try follows the removal of a stale file; losing that race to a third daemon is "held".
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(path, mine)) return lockHandle(path, mine);
    const holder = readLock(path);
    if (holder !== undefined && holder.pid !== mine.pid && isAlive(holder.pid)) throw new HostLockHeldError(path, holder.pid, holder.startedAt);
    removeQuietly(path);
  }
  const holder = readLock(path);
  throw new HostLockHeldError(path, holder?.pid ?? 0, holder?.startedAt ?? 'unknown');
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
    return Number.isInteger(value.pid) && (value.pid ?? 0) > 0 && typeof value.startedAt === 'string' ? (value as LockContent) : undefined;
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

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists and belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
