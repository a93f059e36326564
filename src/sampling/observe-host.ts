import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CounterWrapError, SamplingIntervalError } from './errors.js';
import { readGovernors } from './governors.js';
import { readCpuidle, type CpuidleFacts } from './idle-states.js';
import { parseLoadavg } from './loadavg.js';
import { parseMeminfo } from './meminfo.js';
import { CPU_FIELDS, parseProcStat, type CpuJiffies } from './proc-stat.js';
import type { QuietHostObservation } from './quiet-host.js';
import { parseVmstat } from './vmstat.js';

/** What one read of the host gives; two of them bound the observation window. */
export interface QuietHostReading {
  /** process.hrtime.bigint(), so a clock step cannot bend the window. */
  atNs: bigint;
  cpu: CpuJiffies;
  availableBytes: number;
  swapPages: number;
  load1: number;
  governors: string[];
  cpuidle: CpuidleFacts;
}

export interface ObserveHostOptions {
  /** Where /proc is; a test or a container with the host's /proc mounted elsewhere points it there. */
  procDir?: string;
  /** Where /sys is; the governors are read from <sysDir>/devices/system/cpu/cpuN/cpufreq/scaling_governor. */
  sysDir?: string;
  signal?: AbortSignal;
}

/** Reads the host twice, windowSeconds apart; the sleep in between stops (AbortError) when signal aborts. */
export async function observeHost(windowSeconds: number, opts: ObserveHostOptions = {}): Promise<QuietHostObservation> {
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new SamplingIntervalError(`the observation window must be a number of seconds > 0, got ${windowSeconds}`);
  }
  const procDir = opts.procDir ?? '/proc';
  const sysDir = opts.sysDir ?? '/sys';
  opts.signal?.throwIfAborted();
  const before = readQuietHost(procDir, sysDir);
  await sleep(windowSeconds * 1000, undefined, opts.signal ? { signal: opts.signal } : {});
  return observationFromReadings(before, readQuietHost(procDir, sysDir));
}

/** One synchronous read of the five sources: well under a millisecond, so the timestamp stays next to the reads. */
export function readQuietHost(procDir: string, sysDir: string): QuietHostReading {
  const read = (name: string): [string, string] => {
    const file = join(procDir, name);
    return [readFileSync(file, 'utf8'), file];
  };
  const atNs = process.hrtime.bigint();
  const stat = parseProcStat(...read('stat'));
  const mem = parseMeminfo(...read('meminfo'));
  const swap = parseVmstat(...read('vmstat'));
  const load = parseLoadavg(...read('loadavg'));
  return {
    atNs,
    cpu: stat.cpu,
    availableBytes: mem.availableBytes,
    swapPages: swap.pswpin + swap.pswpout,
    load1: load.load1,
    governors: readGovernors(join(sysDir, 'devices', 'system', 'cpu')),
    cpuidle: readCpuidle(join(sysDir, 'devices', 'system', 'cpu')),
  };
}

/** Pure: the observation two readings bound. */
export function observationFromReadings(before: QuietHostReading, after: QuietHostReading): QuietHostObservation {
  const windowSeconds = Number(after.atNs - before.atNs) / 1e9;
  if (!(windowSeconds > 0)) {
    throw new SamplingIntervalError(`the second reading is not later than the first (${windowSeconds} s)`);
  }
  return {
    windowSeconds,
    busyPercent: busyPercent(before.cpu, after.cpu, windowSeconds),
    // Memory must be there throughout: the lower of the two reads.
    availableBytes: Math.min(before.availableBytes, after.availableBytes),
    swapPagesPerSecond: delta('vmstat.pswpin+pswpout', before.swapPages, after.swapPages) / windowSeconds,
    // A governor switched during the window shows up as both.
    governors: [...new Set([...before.governors, ...after.governors])].sort(),
    loadAverage1: after.load1,
    cpuidleDriver: after.cpuidle.driver,
    cpuidleGovernor: after.cpuidle.governor,
  };
}

const BUSY_FIELDS = ['user', 'nice', 'system', 'irq', 'softirq', 'steal'] as const;

function busyPercent(a: CpuJiffies, b: CpuJiffies, seconds: number): number {
  const d = (f: keyof CpuJiffies): number => delta(`cpu.${f}`, a[f], b[f]);
  const total = CPU_FIELDS.reduce((sum, f) => sum + d(f), 0);
  if (total === 0) {
    throw new SamplingIntervalError(`no CPU time passed in ${seconds} s: the window is shorter than one clock tick`);
  }
  const busy = BUSY_FIELDS.reduce((sum, f) => sum + d(f), 0);
  return (busy / total) * 100;
}

function delta(counter: string, before: number, after: number): number {
  if (after < before) throw new CounterWrapError(counter, before, after);
  return after - before;
}
