import { readFileSync } from 'node:fs';

/** USER_HZ: the unit of utime and stime in /proc/PID/stat, 100 on every Linux architecture qpswatch runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc/PID/stat; undefined once it is
 * gone. The command name in field 2 may hold spaces and parentheses, so fields are counted after its last ")".
 */
export function processCpuSeconds(pid: number, procDir = '/proc'): number | undefined {
  const text = readProcFile(pid, 'stat', procDir);
  if (text === undefined) return undefined;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) sit at 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return (utime + stime) / TICKS_PER_SECOND;
}

/**
 * Bytes a process has caused to be written to storage so far (write_bytes of /proc/PID/io: page cache write-back
 * and direct I/O alike); undefined once it is gone or when the file cannot be read.
 */
export function processWriteBytes(pid: number, procDir = '/proc'): number | undefined {
  const text = readProcFile(pid, 'io', procDir);
  if (text === undefined) return undefined;
  const match = /^write_bytes:\s*(\d+)$/m.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** A file of /proc/PID, or undefined once the process is gone (or the file is not ours to read). */
function readProcFile(pid: number, name: string, procDir: string): string | undefined {
  try {
    return readFileSync(`${procDir}/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}
