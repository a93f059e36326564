import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatDev, splitDev, type DevNumber } from './dev-number.js';
import { parseDiskstats, type DiskStats } from './diskstats.js';
import { DataDeviceError } from './errors.js';
import { defaultHostPaths, type HostPaths } from './host-paths.js';
import { findMount, parseMountinfo, type MountEntry } from './mountinfo.js';

interface DataDeviceBase {
  /** The folder asked about, as given. */
  path: string;
  /** The /proc/diskstats names whose counters are summed for this folder. */
  names: readonly string[];
  /** The mount holding the folder (its fsType is the filesystem of the data). */
  mount: MountEntry | undefined;
}

/** The folder lives on one block device: found from stat(), or from the mount's source device. */
export interface SingleDataDevice extends DataDeviceBase {
  kind: 'device';
  name: string;
  major: number;
  minor: number;
  via: 'stat' | 'mountinfo';
}

/** No single device could be named (overlay, tmpfs, ZFS...): every whole physical disk is summed instead. */
export interface AllDisksDataDevice extends DataDeviceBase {
  kind: 'all-disks';
  /** Why no single device was found; callers log it, since r/o and wKB/o then include other I/O. */
  reason: string;
}

export type DataDevice = SingleDataDevice | AllDisksDataDevice;

export interface DataDeviceOptions {
  paths?: Partial<HostPaths>;
  /** The device number of the filesystem holding a path; stat() by default. */
  devOf?: (path: string) => DevNumber;
  realpath?: (path: string) => string;
}

/** Finds the block device that holds a folder, so disk counters measure the database's own I/O. */
export function findDataDevice(path: string, opts: DataDeviceOptions = {}): DataDevice {
  const paths = { ...defaultHostPaths(), ...opts.paths };
  const realpath = opts.realpath ?? realpathSync;
  const devOf = opts.devOf ?? ((p: string) => splitDev(statSync(p, { bigint: true }).dev));
  const real = resolveFolder(path, realpath);
  const disks = parseDiskstats(readFileSync(paths.procDiskstats, 'utf8'), paths.procDiskstats);
  const mount = findMount(parseMountinfo(readFileSync(paths.procMountinfo, 'utf8'), paths.procMountinfo), real);
  const dev = devOf(real);
  const byDev = disks.find((d) => d.major === dev.major && d.minor === dev.minor);
  if (byDev) return single(path, byDev, mount, 'stat');
  const bySource = sourceDisk(mount, disks, realpath);
  if (bySource) return single(path, bySource, mount, 'mountinfo');
  return allDisks(path, disks, mount, paths.sysBlock, noDeviceReason(real, dev, mount));
}

/** A short name for logs, stores and fingerprints: "vda" or "all-disks:nvme0n1+sdb". */
export function describeDataDevice(device: DataDevice): string {
  return device.kind === 'device' ? device.name : `all-disks:${device.names.join('+')}`;
}

function resolveFolder(path: string, realpath: (p: string) => string): string {
  try {
    return realpath(path);
  } catch (err) {
    throw new DataDeviceError(path, `the folder cannot be resolved (${(err as Error).message}); create it first`);
  }
}

type Mount = MountEntry | undefined;

function single(path: string, disk: DiskStats, mount: Mount, via: SingleDataDevice['via']): SingleDataDevice {
  const { name, major, minor } = disk;
  return { kind: 'device', path, names: [name], mount, name, major, minor, via };
}

/** A btrfs subvolume or similar reports an anonymous dev; its mount's source still names the real device. */
function sourceDisk(mount: Mount, disks: readonly DiskStats[], realpath: (p: string) => string): DiskStats | undefined {
  if (mount === undefined || !mount.source.startsWith('/dev/')) return undefined;
  let source = mount.source;
  try {
    source = realpath(source); // /dev/mapper/x and /dev/disk/by-* are symlinks to the kernel name
  } catch {
    // /dev/root and the like do not exist as files: their name is all there is.
  }
  const name = basename(source);
  return disks.find((d) => d.name === name);
}

function allDisks(
  path: string,
  disks: readonly DiskStats[],
  mount: Mount,
  sysBlock: string,
  reason: string,
): AllDisksDataDevice {
  const names = wholePhysicalDisks(sysBlock).filter((n) => disks.some((d) => d.name === n));
  if (names.length === 0) {
    throw new DataDeviceError(path, `${reason}, and ${sysBlock} lists no physical disk (loop, zram, dm do not count)`);
  }
  return { kind: 'all-disks', path, names, mount, reason };
}

/** Whole disks with a `device` entry are hardware (or a hypervisor's virtio disk); loop, zram, dm and md are not. */
export function wholePhysicalDisks(sysBlock: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(sysBlock);
  } catch {
    return [];
  }
  return entries.filter((name) => existsSync(join(sysBlock, name, 'device'))).sort();
}

function noDeviceReason(real: string, dev: DevNumber, mount: Mount): string {
  if (mount === undefined) return `${real} (dev ${formatDev(dev)}) is under no mount in mountinfo`;
  const on = `${mount.fsType} "${mount.source}" mounted at ${mount.mountPoint} (dev ${formatDev(dev)})`;
  return `${real} is on ${on}, which is not a device in /proc/diskstats`;
}
