import { existsSync, realpathSync } from 'node:fs';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import {
  isZombie,
  LockFileError,
  LockFileRefusedError,
  LockUnreadableError,
  otherPids,
  processArgv,
  processCwd,
  processGroup,
  processSession,
  processUid,
  stopProcess,
  tryPidLock,
  waitForPidLock,
  type PidLock,
  type PidLockHolder,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { checkCacheDir } from '../server/index.js';
import { BuildLockError } from './errors.js';

/** One lock file per build key in the cache folder, beside the worktrees it guards. */
export function buildLockPath(cacheDir: string, key: string): string {
  return join(cacheDir, 'locks', `build-${key}.lock`);
}

export interface BuildLockOptions {
  readonly cacheDir: string;
  readonly key: string;
  /** For the line of whoever waits: `the build of "mariadb-10.11.1" (key ...)`. */
  readonly tag: string;
  readonly signal?: AbortSignal;
  readonly pollMs?: number;
  /** One progress line per holder waited for. */
  readonly onWait?: (holder: PidLockHolder) => void;
}

/**
 * Takes the lock of one build key, waiting while another live process builds it: two builds of one key share its
 * worktree folder, so the second must wait and then find it built. A lock whose process is gone (a build killed
 * with SIGKILL) is taken over; what that build left running is the caller's to stop (stopLeftoverBuild). The locks
 * folder must be a folder, not a link to one.
 */
export async function acquireBuildLock(opts: BuildLockOptions): Promise<PidLock> {
  const path = buildLockPath(opts.cacheDir, opts.key);
  const unwritable = (code: string): BuildLockError =>
    new BuildLockError(path, `cannot be created (${code}): make cache_dir writable for this user`);
  await checkCacheDir(opts.cacheDir);
  await mkdir(join(opts.cacheDir, 'locks'), { recursive: true }).catch((err: unknown) => {
    throw unwritable((err as NodeJS.ErrnoException).code ?? String(err));
  });
  if (!(await lstat(join(opts.cacheDir, 'locks'))).isDirectory())
    throw new BuildLockError(
      path,
      `cannot be used: ${join(opts.cacheDir, 'locks')} is not a folder (a symbolic link?); remove it`,
    );
  try {
    return await waitForPidLock(path, {
      holds: `the build of ${JSON.stringify(opts.tag)} (key ${opts.key})`,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
      ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
      ...(opts.onWait !== undefined ? { onWait: opts.onWait } : {}),
    });
  } catch (err) {
    if (err instanceof LockFileError) throw unwritable(err.code);
    if (err instanceof LockFileRefusedError)
      throw new BuildLockError(path, `${err.what}; remove it as root (sudo rm ${path})`);
    if (err instanceof LockUnreadableError) {
      throw new BuildLockError(
        path,
        `cannot be read by this user (${err.code}): it belongs to ${err.owner}, ` +
          `so it counts as held; see who holds it with sudo fuser -v ${path}, and ` +
          `if nothing does, remove it`,
      );
    }
    throw err;
  }
}

/**
 * What a start finds of builds that died with their process (a daemon or `qpswatch build` killed with SIGKILL): each
 * build lock that nobody holds (flock: the kernel let go when its holder died) is taken, what that build left running
 * in its worktree is stopped, and the lock is released. A held lock is left alone, with its build, and so is one this
 * user cannot read or does not trust: it counts as held. Returns the keys it cleaned up.
 */
export async function stopDeadBuilds(cacheDir: string, log: Logger): Promise<string[]> {
  const names = await readdir(join(cacheDir, 'locks')).catch(() => [] as string[]);
  const cleaned: string[] = [];
  for (const name of names) {
    const key = /^build-(.+)\.lock$/.exec(name)?.[1];
    if (key === undefined) continue;
    let attempt;
    try {
      attempt = tryPidLock(join(cacheDir, 'locks', name));
    } catch {
      continue; // Unreadable or not trusted: counts as held; the build that needs the key says so.
    }
    if (!('lock' in attempt)) continue;
    try {
      if ((await stopLeftoverBuild(join(cacheDir, 'worktrees', key), log)).length > 0) cleaned.push(key);
    } finally {
      attempt.lock.release();
    }
  }
  return cleaned;
}

/** The tools that drive a build: a group working in the worktree with one of them is a build's. */
const BUILD_DRIVERS = new Set(['cmake', 'make', 'gmake', 'ninja']);

/**
 * Stops what a killed build left running in its worktree: exec starts each cmake step as the leader of its own
 * process group, so cmake, make and the compilers outlive a SIGKILL of qpswatch (cmake itself may die of the
 * closed pipe and leave make and the compilers behind). A process group counts only when its processes are this
 * user's and work inside the worktree, and its leader is cmake there, or is gone (a zombie counts as gone) and a build
 * tool (make, ninja) of the group works there: a person's shell in the worktree leads a group of its own and is never
 * touched. Call it
 * while holding the key's lock, so no live build of that key is touched.
 */
export async function stopLeftoverBuild(worktree: string, log: Logger, procDir = '/proc'): Promise<number[]> {
  const groups = leftoverGroups(existsSync(worktree) ? realpathSync(worktree) : resolve(worktree), procDir);
  for (const group of groups) {
    const leftover = log.child({ component: 'build', leftoverGroup: group, worktree });
    leftover.warn('a build killed earlier left cmake running in its worktree: stopping it and its make and compilers');
    const outcome = await stopProcess(group, { procDir, group: true, graceMs: 10_000 }, leftover);
    if (outcome !== 'stopped') leftover.warn({ outcome }, 'the leftover build could not be stopped');
  }
  return groups;
}

function inOwnSession(pid: number, group: number, procDir: string): boolean {
  const session = processSession(pid, procDir);
  return session !== undefined && session.session === group && !session.hasTerminal;
}

function leftoverGroups(dir: string, procDir: string): number[] {
  const uid = process.getuid?.();
  // Every process of this user working in the worktree, by process group: its programs.
  const byGroup = new Map<number, Map<number, string>>();
  for (const pid of otherPids(procDir)) {
    if (uid !== undefined && processUid(pid, procDir) !== uid) continue;
    const cwd = processCwd(pid, procDir);
    const group = processGroup(pid, procDir);
    if (cwd === undefined || group === undefined || !(cwd === dir || cwd.startsWith(dir + sep))) continue;
    // exec starts each step with setsid: a person's cmake run from a shell in the worktree is a job in the shell's
    // session.
    if (!inOwnSession(pid, group, procDir)) continue;
    const members = byGroup.get(group) ?? new Map<number, string>();
    members.set(pid, basename(processArgv(pid, procDir)?.[0] ?? ''));
    byGroup.set(group, members);
  }
  return [...byGroup.entries()]
    .filter(([group, members]) => {
      // A leader that died (cmake, of its closed output pipe) may linger as a zombie where nobody reaps orphans
      // (pid 1 of a container): it counts as gone, and the build tools it left decide.
      if (!isZombie(group, procDir)) return members.get(group) === 'cmake';
      return [...members.values()].some((program) => BUILD_DRIVERS.has(program));
    })
    .map(([group]) => group);
}
