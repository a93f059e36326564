import { readFileSync } from 'node:fs';
import { describeDataDevice, type DataDevice } from './data-device.js';
import { parseDiskstats, type DiskStats } from './diskstats.js';
import { DataDeviceError } from './errors.js';
import { defaultHostPaths, type HostPaths } from './host-paths.js';
import { parseProcStat, type CpuJiffies } from './proc-stat.js';

/** The disk counters of the data device (summed when it is all disks). */
export interface DiskCounters {
  readsCompleted: number;
  sectorsRead: number;
  writesCompleted: number;
  sectorsWritten: number;
}

/** Host counters at one instant; two of them bound a measured interval. */
export interface HostSnapshot {
  /** process.hrtime.bigint(): monotonic, so a clock step during a run cannot bend the rates. */
  atNs: bigint;
  cpu: CpuJiffies;
  cpus: number;
  ctxt: number;
  disk: DiskCounters;
  /** describeDataDevice() of the device the disk counters come from. */
  device: string;
}

/**
 * Reads /proc/stat and /proc/diskstats once each, synchronously: a snapshot is a few tens of microseconds, and
 * staying off the event loop keeps the timestamp next to the reads.
 */
export function takeHostSnapshot(device: DataDevice, paths: Partial<HostPaths> = {}): HostSnapshot {
  const p = { ...defaultHostPaths(), ...paths };
  const atNs = process.hrtime.bigint();
  const statText = readFileSync(p.procStat, 'utf8');
  const diskText = readFileSync(p.procDiskstats, 'utf8');
  return snapshotFromText(statText, diskText, device, atNs, p);
}

/** The pure half of takeHostSnapshot, for captured files. */
export function snapshotFromText(
  statText: string,
  diskstatsText: string,
  device: DataDevice,
  atNs: bigint,
  paths: Pick<HostPaths, 'procStat' | 'procDiskstats'> = defaultHostPaths(),
): HostSnapshot {
  const stat = parseProcStat(statText, paths.procStat);
  const disks = parseDiskstats(diskstatsText, paths.procDiskstats);
  const disk = sumDevices(disks, device, paths.procDiskstats);
  return { atNs, cpu: stat.cpu, cpus: stat.cpus, ctxt: stat.ctxt, disk, device: describeDataDevice(device) };
}

function sumDevices(disks: readonly DiskStats[], device: DataDevice, file: string): DiskCounters {
  const sum: DiskCounters = { readsCompleted: 0, sectorsRead: 0, writesCompleted: 0, sectorsWritten: 0 };
  for (const name of device.names) {
    const d = disks.find((x) => x.name === name);
    if (d === undefined) {
      throw new DataDeviceError(device.path, `device ${name} is no longer in ${file}; find the data device again`);
    }
    sum.readsCompleted += d.readsCompleted;
    sum.sectorsRead += d.sectorsRead;
    sum.writesCompleted += d.writesCompleted;
    sum.sectorsWritten += d.sectorsWritten;
  }
  return sum;
}
