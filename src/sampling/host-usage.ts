import { DISKSTATS_SECTOR_BYTES } from './diskstats.js';
import { CounterWrapError, SamplingIntervalError } from './errors.js';
import type { DiskCounters, HostSnapshot } from './host-snapshot.js';
import { CPU_FIELDS, type CpuJiffies } from './proc-stat.js';

/** Host resources over one measured interval, in the units of vmstat and iostat. */
export interface HostUsage {
  seconds: number;
  cpus: number;
  /** user + nice, percent of all CPUs (vmstat us). */
  usPct: number;
  /** system + irq + softirq, percent of all CPUs (vmstat sy). */
  syPct: number;
  /** usPct + syPct: the "us+sy" of the reference studies. */
  cpuBusyPct: number;
  iowaitPct: number;
  csPerSec: number;
  readsPerSec: number;
  readKBPerSec: number;
  writesPerSec: number;
  writeKBPerSec: number;
  device: string;
}

/** What happened between two snapshots: exactly the measured interval, no since-boot averages. */
export function diffHostSnapshots(before: HostSnapshot, after: HostSnapshot): HostUsage {
  const seconds = Number(after.atNs - before.atNs) / 1e9;
  checkPair(before, after, seconds);
  const cpu = cpuDelta(before.cpu, after.cpu);
  const total = CPU_FIELDS.reduce((sum, f) => sum + cpu[f], 0);
  if (total === 0) {
    throw new SamplingIntervalError(`no CPU time passed in ${seconds} s: the interval is shorter than one clock tick`);
  }
  const pct = (jiffies: number): number => (jiffies / total) * 100;
  const disk = diskDelta(before.disk, after.disk);
  const perSec = (n: number): number => n / seconds;
  const kb = (sectors: number): number => (sectors * DISKSTATS_SECTOR_BYTES) / 1024;
  const usPct = pct(cpu.user + cpu.nice);
  const syPct = pct(cpu.system + cpu.irq + cpu.softirq);
  return {
    seconds,
    cpus: after.cpus,
    usPct,
    syPct,
    cpuBusyPct: usPct + syPct,
    iowaitPct: pct(cpu.iowait),
    csPerSec: perSec(delta('ctxt', before.ctxt, after.ctxt)),
    readsPerSec: perSec(disk.readsCompleted),
    readKBPerSec: perSec(kb(disk.sectorsRead)),
    writesPerSec: perSec(disk.writesCompleted),
    writeKBPerSec: perSec(kb(disk.sectorsWritten)),
    device: after.device,
  };
}

function checkPair(before: HostSnapshot, after: HostSnapshot, seconds: number): void {
  if (!(seconds > 0)) {
    throw new SamplingIntervalError(`the second sample is not later than the first (${seconds} s); pass them in order`);
  }
  if (before.cpus !== after.cpus) {
    throw new SamplingIntervalError(`the number of online CPUs changed (${before.cpus} -> ${after.cpus})`);
  }
  if (before.device !== after.device) {
    throw new SamplingIntervalError(`the samples are of different devices (${before.device}, ${after.device})`);
  }
}

function cpuDelta(a: CpuJiffies, b: CpuJiffies): CpuJiffies {
  const out = {} as CpuJiffies;
  for (const f of CPU_FIELDS) out[f] = delta(`cpu.${f}`, a[f], b[f]);
  return out;
}

function diskDelta(a: DiskCounters, b: DiskCounters): DiskCounters {
  return {
    readsCompleted: delta('disk.readsCompleted', a.readsCompleted, b.readsCompleted),
    sectorsRead: delta('disk.sectorsRead', a.sectorsRead, b.sectorsRead),
    writesCompleted: delta('disk.writesCompleted', a.writesCompleted, b.writesCompleted),
    sectorsWritten: delta('disk.sectorsWritten', a.sectorsWritten, b.sectorsWritten),
  };
}

function delta(counter: string, before: number, after: number): number {
  if (after < before) throw new CounterWrapError(counter, before, after);
  return after - before;
}
