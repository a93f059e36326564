import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What /proc says about a process, for the questions "is the process that wrote this pid still alive?" (host
 * lock, sessions left running) and "is this process ours?" (stray-process cleanup). A pid alone is not enough:
 * pids are reused, so a process is named by its pid and its start time.
 */

/** Linux's USER_HZ: /proc/PID/stat counts start times in these ticks; 100 on every architecture Node runs on. */
export const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcessIdentity {
  pid: number;
  /** field 22 of /proc/PID/stat: clock ticks after boot at which the process started */
  startTicks: number;
}

/** The fields of /proc/PID/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number, procDir: string): string[] | undefined {
  try {
    const stat = readFileSync(join(procDir, String(pid), 'stat'), 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The start time of a live process (undefined: no such process), as field 22 of /proc/PID/stat. */
export function processStartTicks(pid: number, procDir = '/proc'): number | undefined {
  const fields = statFields(pid, procDir);
  // field 3 (state) is index 0, so field 22 is index 19
  const ticks = Number(fields?.[19]);
  return fields !== undefined && Number.isSafeInteger(ticks) ? ticks : undefined;
}

/** A zombie holds nothing any more: it only waits for its parent (or init) to reap it. */
export function isZombie(pid: number, procDir = '/proc'): boolean {
  const state = statFields(pid, procDir)?.[0];
  return state === undefined || state === 'Z' || state === 'X';
}

/** The process group of a live process (undefined: gone). */
export function processGroup(pid: number, procDir = '/proc'): number | undefined {
  const group = Number(statFields(pid, procDir)?.[2]);
  return Number.isSafeInteger(group) ? group : undefined;
}

/**
 * The session of a live process and whether it has a controlling terminal (fields 6 and 7 of /proc/PID/stat);
 * undefined: gone. exec starts each child with setsid (detached), so its session is its own, with no terminal;
 * a person's job in a shell shares the shell's session and terminal.
 */
export function processSession(pid: number, procDir = '/proc'): { session: number; hasTerminal: boolean } | undefined {
  const fields = statFields(pid, procDir);
  const session = Number(fields?.[3]);
  const tty = Number(fields?.[4]);
  return Number.isSafeInteger(session) && Number.isSafeInteger(tty) ? { session, hasTerminal: tty !== 0 } : undefined;
}

/** The real user id the process runs as: the owner of its /proc folder (undefined: gone). */
export function processUid(pid: number, procDir = '/proc'): number | undefined {
  try {
    return statSync(join(procDir, String(pid))).uid;
  } catch {
    return undefined;
  }
}

/** The command line of a process, word by word (undefined: gone, or not this user's to read). */
export function processArgv(pid: number, procDir = '/proc'): string[] | undefined {
  try {
    return readFileSync(join(procDir, String(pid), 'cmdline'), 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    return undefined;
  }
}

/** The pids of every process /proc shows, but this one's, in the order /proc lists them. */
export function otherPids(procDir = '/proc'): number[] {
  return readdirSync(procDir)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/** The user id of a user name (or of a number written as text); undefined when /etc/passwd has no such user. */
export function userId(user: string, passwdFile = '/etc/passwd'): number | undefined {
  if (/^\d+$/.test(user)) return Number(user);
  try {
    for (const line of readFileSync(passwdFile, 'utf8').split('\n')) {
      const [name, , uid] = line.split(':');
      if (name === user && uid !== undefined) return Number(uid);
    }
  } catch {
    // No passwd file: the user is unknown.
  }
  return undefined;
}

/** The name of a user id, from /etc/passwd; undefined when it has none (or there is no passwd file: a container). */
export function userName(uid: number, passwdFile = '/etc/passwd'): string | undefined {
  try {
    for (const line of readFileSync(passwdFile, 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name !== undefined && name !== '' && Number(id) === uid) return name;
    }
  } catch {
    // No passwd file: the uid says enough.
  }
  return undefined;
}

/** The working folder of a process (undefined: gone, or not this user's to read). */
export function processCwd(pid: number, procDir = '/proc'): string | undefined {
  try {
    return readlinkSync(join(procDir, String(pid), 'cwd'));
  } catch {
    return undefined;
  }
}

/** When the process started, in ms since the epoch (from boot time and its start ticks); undefined: gone. */
export function processStartMs(pid: number, procDir = '/proc'): number | undefined {
  const ticks = processStartTicks(pid, procDir);
  const boot = bootTimeMs(procDir);
  return ticks === undefined || boot === undefined ? undefined : boot + (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

function bootTimeMs(procDir: string): number | undefined {
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync(join(procDir, 'stat'), 'utf8'));
    return line === null ? undefined : Number(line[1]) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process is alive, and when `startTicks` is given, whether it is the same process (not another that
 * got its pid since). Signal 0 answers for processes of other users too (EPERM: it exists).
 */
export function processAlive(pid: number, startTicks?: number, procDir = '/proc'): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const fields = statFields(pid, procDir);
  // It exists (signal 0 said so) but /proc hides it (mounted with hidepid): its start time cannot be compared.
  if (fields === undefined) return true;
  if (fields[0] === 'Z' || fields[0] === 'X') return false;
  return startTicks === undefined || Number(fields[19]) === startTicks;
}

/** This process, as a lock or a pid file records it. */
export function selfIdentity(procDir = '/proc'): ProcessIdentity {
  return { pid: process.pid, startTicks: processStartTicks(process.pid, procDir) ?? 0 };
}
