import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { ProfileSide } from '../model/index.js';
import { ProfilerFailedError } from './errors.js';
import { sampleCount } from './fold.js';
import { parsePerfScript } from './perf-script.js';

export interface SamplerOptions {
  /** The process to sample (mysqld). */
  pid: number;
  seconds: number;
  /** Where the profiler's files go (perf.data and its script). */
  workDir: string;
  signal?: AbortSignal;
  log?: Logger;
}

/**
 * Samples frequency: 499 Hz keeps the script of a 10-second profile of a busy server under a few MB, and an odd
 * rate does not beat against timers that fire at round intervals.
 */
const SAMPLE_HZ = '499';
/**
 * cpu-clock works in VMs without hardware counters; -g walks frame pointers. No build-id cache: perf would copy every
 * profiled binary (one per build bisect makes) into root's ~/.debug, which nothing reads back.
 */
const RECORD_FLAGS = ['-e', 'cpu-clock', '-F', SAMPLE_HZ, '-g', '--no-buildid-cache'];

/** perf script resolves symbols of every sample; a large profile takes a while. */
const SCRIPT_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * `perf record` of one process with call graphs (frame pointers: the build profiles keep them, and Debian's mariadbd
 * walks with them too) on the cpu-clock event, which works in VMs without hardware counters; then `perf script`
 * into a file, parsed into folded stacks.
 */
export async function recordWithPerf(perf: string, opts: SamplerOptions): Promise<ProfileSide> {
  const data = join(opts.workDir, `perf-${opts.pid}.data`);
  const script = join(opts.workDir, `perf-${opts.pid}.txt`);
  try {
    const record = await run({
      argv: [perf, 'record', ...RECORD_FLAGS, '-p', String(opts.pid), '-o', data, '--'].concat([
        'sleep',
        String(opts.seconds),
      ]),
      timeoutMs: opts.seconds * 1000 + 60_000,
      allowFailure: true,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
      ...(opts.log !== undefined ? { log: opts.log } : {}),
    });
    if (record.exitCode !== 0) throw new ProfilerFailedError('perf record', lastLine(record.tail, record.exitCode));
    // The script can pass exec's output cap: perf writes it to a file (stdout, appended there) that is read back.
    await rm(script, { force: true });
    const out = await run({
      argv: [perf, 'script', '-i', data, '-F', 'comm,tid,ip,sym,dso'],
      logFile: script,
      timeoutMs: SCRIPT_TIMEOUT_MS,
      allowFailure: true,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
    if (out.exitCode !== 0) throw new ProfilerFailedError('perf script', lastLine(out.tail, out.exitCode));
    const stacks = parsePerfScript(await readFile(script, 'utf8'));
    if (stacks.length === 0) throw new ProfilerFailedError('perf record', 'no samples of the server were taken');
    return { tool: 'perf', samples: sampleCount(stacks), stacks };
  } finally {
    await rm(data, { force: true });
    await rm(script, { force: true });
  }
}

function lastLine(tail: readonly string[], exitCode: number | null): string {
  const line = tail.filter((l) => l.trim() !== '').at(-1);
  return `exit ${exitCode}${line !== undefined ? `: ${line.trim()}` : ''}`;
}
