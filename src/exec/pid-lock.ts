import { spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultEnv } from './run.js';
import { processAlive, processStartTicks, userId, userName } from './process-info.js';

/**
 * A lock file held with flock(2): the kernel, not the file's text, says whether it is held, and it lets go when the
 * holder dies however it dies (SIGKILL too). So no process is ever judged by its pid: a pid hidden from /proc
 * (ProtectProc=invisible), reused, or planted in the file (pid 1) changes nothing.
 *
 * Node has no flock, so util-linux's flock(1) takes it on the descriptor this process opened (it is passed as fd 3):
 * a flock belongs to the open file description, which this process keeps open after flock(1) exits, so the lock is
 * this process's until it closes the descriptor or dies. The holder writes its pid, start time and what it does into
 * the file, for the people who find it held; nobody reads liveness from that text.
 *
 * Why two waiters cannot both win: flock(LOCK_EX|LOCK_NB) succeeds for one open file description at a time, and the
 * winner then checks that the inode it locked is still the one at the path (fstat of its descriptor against lstat of
 * the path). A holder removes the file while it still holds the lock, so a waiter that locked the unlinked inode sees
 * another inode (or none) at the path and tries again; nothing ever deletes a file it has not locked.
 */

/** What the file holds: the holder's pid, when it took the lock, its process start time, and what it does. */
export interface PidLockHolder {
  /** 0: the file names nobody (its holder has not written it yet, or it could not: another user's file). */
  pid: number;
  startedAt: string;
  /** field 22 of /proc/PID/stat: with the pid, it names the process (pids are reused) */
  startTicks?: number;
  /** What the holder does, for those who wait: `the build of "mariadb-10.11.1" (key 1a2b3c4d5e6f7a8b)` */
  holds?: string;
  /** The qpswatch command that holds it (build, compare, check); none: a daemon (or an older qpswatch) */
  command?: string;
}

export interface PidLockOptions {
  /** For tests: the pid written (default this process, with its start time). */
  pid?: number;
  now?: () => Date;
  holds?: string;
  command?: string;
  /** The service account's uid, whose lock files root's CLI trusts (default: user qpswatch's, if there is one). */
  serviceUid?: number;
}

export interface PidLock {
  readonly path: string;
  /** Removes the file if it is still ours and lets go of the lock; idempotent. */
  release(): void;
}

export type LockAttempt = { lock: PidLock } | { holder: PidLockHolder };

/** The lock file cannot be created or locked (no folder, no permission, no flock(1)): `code` is the errno or why. */
export class LockFileError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`lock file ${path} cannot be created (${code})`);
    this.name = new.target.name;
  }
}

/**
 * A file at the lock's path that qpswatch will not use: a symbolic link, not a regular file, or a file of a user who
 * is neither root nor qpswatch's (planted in a sticky folder such as /run/lock). `what` says which, for people.
 */
export class LockFileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`lock file ${path} ${what}`);
    this.name = new.target.name;
  }
}

/** A lock file this user may not open: whether it is held cannot be known, so it counts as held. */
export class LockUnreadableError extends Error {
  constructor(
    readonly path: string,
    /** "user root (uid 0), mode 0600" */
    readonly owner: string,
    readonly code: string,
  ) {
    super(`lock file ${path} cannot be read by this user (${code}): it belongs to ${owner}`);
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
 * Takes the lock, or returns the holder its file names. A file left by a holder that died is simply locked again and
 * rewritten. Throws LockFileRefusedError for a file qpswatch does not trust and LockUnreadableError for one it may
 * not open.
 */
export function tryPidLock(path: string, opts: PidLockOptions = {}): LockAttempt {
  for (let attempt = 0; attempt < 5; attempt++) {
    const file = openLockFile(path, trustedLockOwners(opts.serviceUid));
    if (file === undefined) continue; // created by another process between two opens: try again
    if (!flockNonBlocking(path, file.fd)) {
      const holder = heldBy(file.fd);
      closeSync(file.fd);
      return { holder };
    }
    if (!samePath(path, file.stats)) {
      closeSync(file.fd); // locked an inode its holder had just removed
      continue;
    }
    if (!file.writable && removeQuietly(path)) {
      closeSync(file.fd); // another user's file that this one may remove: take the lock on a file of its own
      continue;
    }
    const mine = ownContent(opts);
    if (file.writable) writeHolder(file.fd, file.stats, mine);
    return { lock: lockHandle(path, file.fd, file.stats) };
  }
  return { holder: { pid: 0, startedAt: 'unknown: the file keeps being replaced' } };
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

/** Takes the lock, waiting while another process holds it; the signal stops the wait (LockWaitAbortedError). */
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
  if (holder.pid === 0) return `a process the lock file does not name (${holder.startedAt})`;
  return holder.holds !== undefined
    ? `${holder.holds} by pid ${holder.pid}`
    : `pid ${holder.pid} (started ${holder.startedAt})`;
}

/** The holder a lock file's text names; pid 0 for a file that names none (empty, garbled, or not a lock). */
export function parseHolder(text: string): PidLockHolder {
  try {
    const value = JSON.parse(text) as Partial<PidLockHolder>;
    if (!(Number.isSafeInteger(value.pid) && (value.pid ?? 0) > 0 && typeof value.startedAt === 'string'))
      return unnamed;
    const ticks =
      Number.isSafeInteger(value.startTicks) && (value.startTicks ?? -1) >= 0 ? value.startTicks : undefined;
    return {
      pid: value.pid!,
      startedAt: value.startedAt,
      ...(ticks !== undefined ? { startTicks: ticks } : {}),
      ...(typeof value.holds === 'string' ? { holds: value.holds } : {}),
      ...(typeof value.command === 'string' ? { command: value.command } : {}),
    };
  } catch {
    return unnamed;
  }
}

const unnamed: PidLockHolder = { pid: 0, startedAt: 'it is empty or not a qpswatch lock' };

/** "user nobody (uid 65534), mode 0644", from lstat and /etc/passwd; the uid alone when it has no name. */
export function fileOwner(path: string): string {
  let s: Stats;
  try {
    s = lstatSync(path);
  } catch {
    return 'an unknown user';
  }
  return `${ownerName(s.uid)}, mode ${modeText(s.mode)}`;
}

function ownerName(uid: number): string {
  const name = userName(uid);
  return name === undefined ? `uid ${uid}` : `user ${name} (uid ${uid})`;
}

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/**
 * Root, this process's user and the qpswatch service account: the users whose lock files are qpswatch's. Root's
 * CLI and the service share the host lock, so each must accept the other's file; anyone else's is a plant.
 */
export function trustedLockOwners(serviceUid?: number): Set<number> {
  const owners = new Set([0]);
  const self = process.getuid?.();
  if (self !== undefined) owners.add(self);
  const service = serviceUid ?? userId('qpswatch');
  if (service !== undefined) owners.add(service);
  return owners;
}

interface OpenLockFile {
  fd: number;
  stats: Stats;
  /** false: another user's file, open read-only (a flock needs no write access). */
  writable: boolean;
}

const NOFOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens the file at path without following a link (O_NOFOLLOW; O_NONBLOCK so a planted FIFO cannot block the open),
 * creating it with O_EXCL when there is none, and checks what was opened. An existing file is never opened with
 * O_CREAT: in a sticky folder fs.protected_regular refuses that for other users' files, root included.
 * Undefined: the file appeared between the two opens.
 */
function openLockFile(path: string, trusted: Set<number>): OpenLockFile | undefined {
  let fd: number;
  let writable = true;
  try {
    fd = openSync(path, constants.O_RDWR | NOFOLLOW);
  } catch (err) {
    const code = errno(err);
    if (code === 'ENOENT') return createLockFile(path);
    if (code === 'ELOOP')
      throw new LockFileRefusedError(
        path,
        `is a symbolic link (to ${linkTarget(path)}), made by ` +
          `${ownerName(lstatSync(path).uid)}: qpswatch never follows one`,
      );
    if (code === 'EISDIR') throw new LockFileRefusedError(path, 'is a folder, not a lock file');
    if (code !== 'EACCES' && code !== 'EPERM') throw new LockFileError(path, code);
    try {
      fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
      writable = false;
    } catch (again) {
      throw new LockUnreadableError(path, fileOwner(path), errno(again));
    }
  }
  const stats = fstatSync(fd);
  const refusal = refusalOf(stats, trusted);
  if (refusal !== undefined) {
    closeSync(fd);
    throw new LockFileRefusedError(path, refusal);
  }
  return { fd, stats, writable };
}

function createLockFile(path: string): OpenLockFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  } catch (err) {
    const code = errno(err);
    if (code === 'EEXIST') return undefined;
    throw new LockFileError(path, code);
  }
  return { fd, stats: fstatSync(fd), writable: true };
}

function refusalOf(stats: Stats, trusted: Set<number>): string | undefined {
  if (!stats.isFile()) return 'is not a regular file: remove it';
  if (!trusted.has(stats.uid)) {
    return `belongs to ${ownerName(stats.uid)}, not to root or qpswatch's user: another user may have planted it`;
  }
  return undefined;
}

/**
 * util-linux's flock(1) where Debian puts it, found once: the lock must not depend on the caller's PATH (a session run
 * with a PATH of its own, or without /usr/bin, still takes the host), nor on a `flock` planted earlier in that PATH.
 */
const FLOCK = ['/usr/bin/flock', '/bin/flock'].find((candidate) => existsSync(candidate)) ?? 'flock';

/**
 * flock(fd, LOCK_EX|LOCK_NB) by util-linux's flock(1) on the inherited descriptor: true when this process holds it now.
 */
function flockNonBlocking(path: string, fd: number): boolean {
  const BUSY = 75;
  const result = spawnSync(FLOCK, ['--exclusive', '--nonblock', '--conflict-exit-code', String(BUSY), '3'], {
    stdio: ['ignore', 'ignore', 'pipe', fd],
    env: defaultEnv(),
    timeout: 30_000,
    encoding: 'utf8',
  });
  if (result.status === 0) return true;
  if (result.status === BUSY) return false;
  closeSync(fd);
  const why =
    result.error !== undefined
      ? `flock(1): ${errno(result.error)}; install util-linux`
      : `flock(1): ${result.stderr.trim() || `exit ${result.status ?? result.signal}`}`;
  throw new LockFileError(path, why);
}

/** The locked inode is still the one at the path (not removed or replaced by its previous holder meanwhile). */
function samePath(path: string, stats: Stats): boolean {
  try {
    const now = lstatSync(path);
    return now.ino === stats.ino && now.dev === stats.dev;
  } catch {
    return false;
  }
}

/**
 * The holder a held file names. Its holder writes itself in just after it takes the lock, so a file found empty is
 * read again for a moment before it counts as naming nobody.
 */
function heldBy(fd: number): PidLockHolder {
  for (let look = 0; ; look++) {
    const holder = readHolder(fd);
    if (holder.pid !== 0) return namedStill(holder);
    if (look === 5) return holder;
    Atomics.wait(pause, 0, 0, 20);
  }
}

/**
 * The text of a held file names a process that is gone when its holder could not write itself in (another user's
 * file in a sticky folder, left by a holder killed earlier): that name is not shown as the holder's. Only for
 * messages: whether the lock is held was the kernel's answer.
 */
function namedStill(holder: PidLockHolder): PidLockHolder {
  // Without a start time (an older qpswatch, a test's pid) the name cannot be checked, and is shown as written.
  if (holder.startTicks === undefined || processAlive(holder.pid, holder.startTicks)) return holder;
  return {
    pid: 0,
    startedAt:
      `it still names pid ${holder.pid}, which is gone: the holder could not ` +
      `write itself into another user's file`,
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function readHolder(fd: number): PidLockHolder {
  const buffer = Buffer.alloc(4096);
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return parseHolder(buffer.subarray(0, length).toString('utf8'));
  } catch {
    return unnamed;
  }
}

/**
 * The holder's text, readable by every user (0644 whatever the umask): a reader that cannot read it must count it as
 * held, and a daemon of another user (root's CLI beside the service) then could not say who holds it.
 */
function writeHolder(fd: number, stats: Stats, mine: PidLockHolder): void {
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(mine)}\n`, 0);
  if (stats.uid === process.getuid?.() && (stats.mode & 0o7777) !== 0o644) fchmodSync(fd, 0o644);
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

function lockHandle(path: string, fd: number, stats: Stats): PidLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Removed while still locked, then closed: a waiter that locks the old inode after the close finds the path
      // gone or another inode there, and tries again (see the top of this file).
      if (samePath(path, stats)) removeQuietly(path);
      closeSync(fd);
    },
  };
}

function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false; // gone already, or another user's in a sticky folder
  }
}

function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'somewhere';
  }
}

function errno(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
