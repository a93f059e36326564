import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Systeminformation } from 'systeminformation';
import { knownNumber, knownText, UNKNOWN, type Fact } from './inventory-facts.js';

export type DiskLayoutEntry = Pick<
  Systeminformation.DiskLayoutData,
  'device' | 'type' | 'name' | 'vendor' | 'size' | 'firmwareRevision' | 'interfaceType'
>;
export type BlockDeviceEntry = Pick<
  Systeminformation.BlockDevicesData,
  'name' | 'size' | 'physical' | 'model' | 'protocol'
>;

/** One whole disk under the data folder. */
export interface DiskFacts {
  /** The kernel name: vda, nvme0n1, sda. */
  device: string;
  model: string;
  vendor: string;
  /** HDD, SSD or NVMe as systeminformation tells them apart (rotational flag, transport, model name). */
  type: string;
  /** SATA, SAS, PCIe, USB...; virtio disks have none. */
  interface: string;
  sizeBytes: Fact;
  firmware: string;
}

/**
 * The whole disks behind the data device's names: a partition's parent (sda1 ▶ sda), the members of a dm or md
 * device (its `slaves`, followed down), else the name itself. The disk layout lists whole disks only.
 */
export function wholeDisks(names: readonly string[], sysClassBlock: string): string[] {
  const found = new Set<string>();
  const visit = (name: string, depth: number): void => {
    const dir = join(sysClassBlock, name);
    if (depth < 8 && existsSync(join(dir, 'partition'))) return void found.add(parentOf(dir) ?? name);
    const members = depth < 8 ? listDir(join(dir, 'slaves')) : [];
    if (members.length === 0) return void found.add(name);
    for (const member of members) visit(member, depth + 1);
  };
  for (const name of names) visit(name, 0);
  return [...found].sort();
}

function parentOf(dir: string): string | undefined {
  try {
    return basename(dirname(realpathSync(dir)));
  } catch {
    return undefined;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * A disk's facts from the disk layout (lsblk plus smartctl), else from the block device list: the layout leaves out a
 * disk that carries a filesystem without partitions (a VM's vda), which the block device list still has.
 */
export function diskFacts(
  name: string,
  layout: readonly DiskLayoutEntry[] | undefined,
  blocks: readonly BlockDeviceEntry[] | undefined,
): DiskFacts {
  const disk = layout?.find((d) => d.device === `/dev/${name}`);
  if (disk !== undefined) {
    return {
      device: name,
      model: knownText(disk.name),
      vendor: knownText(disk.vendor),
      type: diskType(disk.type),
      interface: knownText(disk.interfaceType),
      sizeBytes: knownNumber(disk.size),
      firmware: knownText(disk.firmwareRevision),
    };
  }
  const block = blocks?.find((b) => b.name === name);
  return {
    device: name,
    model: knownText(block?.model),
    vendor: UNKNOWN,
    type: diskType(block?.physical),
    interface: knownText(block?.protocol),
    sizeBytes: knownNumber(block?.size),
    firmware: UNKNOWN,
  };
}

/** The layout says HD where the block list says HDD: one word for both. */
function diskType(type: string | undefined): string {
  const known = knownText(type);
  return known === 'HD' ? 'HDD' : known;
}
