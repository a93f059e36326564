/**
 * Where the kernel files are read from. Injectable so parsers and device lookup are tested with captured files,
 * and so a containerised daemon can point at a host /proc mounted elsewhere.
 */
export interface HostPaths {
  procStat: string;
  procDiskstats: string;
  procMountinfo: string;
  procCpuinfo: string;
  /** /sys/block: whole disks; a physical one has a `device` entry, virtual ones (loop, zram, dm) do not. */
  sysBlock: string;
  sysCpu: string;
  sysNode: string;
}

export function defaultHostPaths(): HostPaths {
  return {
    procStat: '/proc/stat',
    procDiskstats: '/proc/diskstats',
    procMountinfo: '/proc/self/mountinfo',
    procCpuinfo: '/proc/cpuinfo',
    sysBlock: '/sys/block',
    sysCpu: '/sys/devices/system/cpu',
    sysNode: '/sys/devices/system/node',
  };
}
