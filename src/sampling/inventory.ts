import { createRequire } from 'node:module';
import type { Logger } from '../log/index.js';
import type { DataDevice } from './data-device.js';
import {
  diskFacts,
  wholeDisks,
  type BlockDeviceEntry,
  type DiskFacts,
  type DiskLayoutEntry,
} from './inventory-disks.js';
import { knownText, UNKNOWN } from './inventory-facts.js';
import {
  boardFacts,
  cpuInventory,
  filesystemFacts,
  firmwareFacts,
  memoryInventory,
  osFacts,
  systemFacts,
  type BiosAnswer,
  type BoardAnswer,
  type BoardFacts,
  type CpuAnswer,
  type CpuInventory,
  type FilesystemFacts,
  type FirmwareFacts,
  type FsAnswer,
  type MemoryInventory,
  type MemoryModuleAnswer,
  type OsAnswer,
  type OsFacts,
  type SystemAnswer,
  type SystemFacts,
} from './inventory-shape.js';
import { within } from './within.js';

// Loaded at first use, not at start: an idle daemon never asks for the host's facts, and the library costs memory.
const requireLazily = createRequire(import.meta.url);
export const systeminformation = (): typeof import('systeminformation') =>
  requireLazily('systeminformation') as typeof import('systeminformation');

/**
 * What people need to judge a result and that does not make the host another host: it is stored inside the
 * fingerprint under `inventory`, and fingerprintId leaves it out (a BIOS update, a grown filesystem or a new distro
 * point release keep the id; the kernel, CPU, memory size and filesystem type in the fingerprint itself do not).
 * Facts no source could give are 'unknown'.
 */
export interface HostInventory {
  system: SystemFacts;
  firmware: FirmwareFacts;
  board: BoardFacts;
  cpu: CpuInventory;
  memory: MemoryInventory;
  /** The whole disks under the data folder. */
  disks: DiskFacts[];
  os: OsFacts;
  /** The data folder's filesystem. */
  filesystem: FilesystemFacts;
  /** Versions systeminformation finds cheaply (sysbench and cmake it does not know). */
  tools: { gcc: string };
  /** The sources that failed or gave no answer in time, with why: their facts are 'unknown'. */
  unavailable: Record<string, string>;
}

/** The systeminformation calls the inventory makes; `si` itself is one, tests pass fakes. */
export interface InventorySource {
  system(): Promise<SystemAnswer>;
  bios(): Promise<BiosAnswer>;
  baseboard(): Promise<BoardAnswer>;
  cpu(): Promise<CpuAnswer>;
  memLayout(): Promise<MemoryModuleAnswer[]>;
  diskLayout(): Promise<DiskLayoutEntry[]>;
  blockDevices(): Promise<BlockDeviceEntry[]>;
  osInfo(): Promise<OsAnswer>;
  fsSize(): Promise<FsAnswer[]>;
  versions(apps: string): Promise<{ gcc?: string }>;
}

export interface InventoryOptions {
  source?: InventorySource;
  /** How long each source may take; default 10 s (measured on a 2-CPU VM: 40-600 ms each). */
  timeoutMs?: number;
  /** /sys/class/block, to find the whole disks under a partition or a dm/md device. */
  sysClassBlock?: string;
  /** A source without an answer is logged as a warning when given. */
  log?: Logger;
}

export const INVENTORY_TIMEOUT_MS = 10_000;

/**
 * The host's inventory from systeminformation. Its sources run helper programs (lsblk, dmidecode, smartctl, df,
 * hostname) and cost 1.4 s together on an idle 2-CPU VM (2.3-2.9 s at load 9), so this runs once per session or
 * `qpswatch host`, never per sample. It never throws: a source that fails or hangs past the timeout leaves its facts
 * 'unknown'.
 */
export async function collectInventory(device: DataDevice, opts: InventoryOptions = {}): Promise<HostInventory> {
  const source = opts.source ?? systeminformation();
  const timeoutMs = opts.timeoutMs ?? INVENTORY_TIMEOUT_MS;
  const unavailable: Record<string, string> = {};
  const ask = async <T>(name: string, call: () => Promise<T>): Promise<T | undefined> => {
    const answer = await within(call, timeoutMs);
    if (answer.ok) return answer.value;
    unavailable[name] = answer.reason;
    opts.log?.warn(
      { source: name, reason: answer.reason },
      'host inventory: a source gave no answer, its facts are unknown',
    );
    return undefined;
  };
  // One after another: all at once was no faster on 2 CPUs, and their synchronous parts (execSync inside
  // systeminformation) stacked up to block the event loop for 0.8-1.2 s; one at a time, 0.2-0.5 s at most.
  const system = await ask('system', () => source.system());
  const bios = await ask('bios', () => source.bios());
  const board = await ask('baseboard', () => source.baseboard());
  const cpu = await ask('cpu', () => source.cpu());
  const memory = await ask('memLayout', () => source.memLayout());
  const layout = await ask('diskLayout', () => source.diskLayout());
  const blocks = await ask('blockDevices', () => source.blockDevices());
  const os = await ask('osInfo', () => source.osInfo());
  const sizes = await ask('fsSize', () => source.fsSize());
  const versions = await ask('versions', () => source.versions('gcc'));
  const disks = wholeDisks(device.names, opts.sysClassBlock ?? '/sys/class/block');
  return {
    system: systemFacts(system, cpu),
    firmware: firmwareFacts(bios),
    board: boardFacts(board),
    cpu: cpuInventory(cpu),
    memory: memoryInventory(memory),
    disks: disks.map((name) => diskFacts(name, layout, blocks)),
    os: osFacts(os),
    filesystem: filesystemFacts(device.mount?.mountPoint, sizes),
    tools: { gcc: knownText(versions?.gcc) },
    unavailable,
  };
}

/**
 * The few inventory facts a report's host line carries (key=value): what machine it is, whether it is a VM, and
 * what kind of disk holds the data. An absent inventory (a host stored before inventories) gives none.
 */
export function inventoryHostFacts(inventory: HostInventory | undefined): Record<string, string> {
  if (inventory === undefined) return {};
  const { manufacturer, model, virtualization } = inventory.system;
  const named = [manufacturer, model].filter((s) => s !== UNKNOWN);
  const diskTypes = [...new Set(inventory.disks.map((d) => d.type))];
  return {
    system: named.length > 0 ? named.join(' ') : UNKNOWN,
    virt: virtualization,
    diskType: diskTypes.length > 0 ? diskTypes.join('+') : UNKNOWN,
  };
}
