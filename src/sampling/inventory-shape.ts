import type { Systeminformation as Si } from 'systeminformation';
import { knownNumber, knownText, UNKNOWN, type Fact } from './inventory-facts.js';

// What the inventory reads of each systeminformation answer: fakes in tests give these fields and nothing else.
export type SystemAnswer = Pick<Si.SystemData, 'manufacturer' | 'model' | 'version' | 'virtual' | 'virtualHost'>;
export type BiosAnswer = Pick<Si.BiosData, 'vendor' | 'version' | 'releaseDate'>;
export type BoardAnswer = Pick<Si.BaseboardData, 'manufacturer' | 'model' | 'version'>;
export type CpuAnswer = Pick<
  Si.CpuData,
  'manufacturer' | 'brand' | 'family' | 'model' | 'stepping' | 'speed' | 'speedMax' | 'flags' | 'cache'
>;
export type MemoryModuleAnswer = Pick<
  Si.MemLayoutData,
  'size' | 'bank' | 'type' | 'clockSpeed' | 'formFactor' | 'manufacturer' | 'partNum'
>;
export type OsAnswer = Pick<Si.OsData, 'distro' | 'release' | 'codename' | 'kernel' | 'arch'>;
export type FsAnswer = Pick<Si.FsSizeData, 'type' | 'size' | 'mount'>;

export interface SystemFacts {
  manufacturer: string;
  model: string;
  version: string;
  /**
   * The hypervisor systeminformation names (KVM, VMware...), 'vm' when only the CPU's hypervisor flag tells, 'none'.
   */
  virtualization: string;
}

export interface FirmwareFacts {
  vendor: string;
  version: string;
  releaseDate: string;
}

export interface BoardFacts {
  manufacturer: string;
  model: string;
  version: string;
}

export interface CpuInventory {
  manufacturer: string;
  brand: string;
  family: string;
  model: string;
  stepping: string;
  /** Base and highest clock as the CPU reports them (0 in many VMs: unknown). */
  speedGHz: Fact;
  speedMaxGHz: Fact;
  cacheL1dBytes: Fact;
  cacheL1iBytes: Fact;
  cacheL2Bytes: Fact;
  cacheL3Bytes: Fact;
}

export interface MemoryModule {
  bank: string;
  sizeBytes: Fact;
  type: string;
  clockMHz: Fact;
  formFactor: string;
  manufacturer: string;
  partNumber: string;
}

export interface MemoryInventory {
  /** The sum of the modules; a VM without DMI reports one module of the kernel's total. */
  installedBytes: Fact;
  modules: MemoryModule[];
}

export interface OsFacts {
  distro: string;
  release: string;
  codename: string;
  kernel: string;
  arch: string;
}

export interface FilesystemFacts {
  mount: string;
  type: string;
  sizeBytes: Fact;
}

export function systemFacts(system: SystemAnswer | undefined, cpu: CpuAnswer | undefined): SystemFacts {
  return {
    manufacturer: knownText(system?.manufacturer),
    model: knownText(system?.model),
    version: knownText(system?.version),
    virtualization: virtualization(system, cpu),
  };
}

function virtualization(system: SystemAnswer | undefined, cpu: CpuAnswer | undefined): string {
  if (system?.virtual === true) return knownText(system.virtualHost) === UNKNOWN ? 'vm' : knownText(system.virtualHost);
  // Without DMI (many clouds, containers) systeminformation misses the VM; the kernel's CPU flag does not.
  if (cpu !== undefined && cpu.flags.split(/\s+/).includes('hypervisor')) return 'vm';
  return system !== undefined && cpu !== undefined ? 'none' : UNKNOWN;
}

export function firmwareFacts(bios: BiosAnswer | undefined): FirmwareFacts {
  return {
    vendor: knownText(bios?.vendor),
    version: knownText(bios?.version),
    releaseDate: knownText(bios?.releaseDate),
  };
}

export function boardFacts(board: BoardAnswer | undefined): BoardFacts {
  return {
    manufacturer: knownText(board?.manufacturer),
    model: knownText(board?.model),
    version: knownText(board?.version),
  };
}

export function cpuInventory(cpu: CpuAnswer | undefined): CpuInventory {
  return {
    manufacturer: knownText(cpu?.manufacturer),
    brand: knownText(cpu?.brand),
    family: knownText(cpu?.family),
    model: knownText(cpu?.model),
    stepping: knownText(cpu?.stepping),
    speedGHz: knownNumber(cpu?.speed),
    speedMaxGHz: knownNumber(cpu?.speedMax),
    cacheL1dBytes: knownNumber(cpu?.cache?.l1d),
    cacheL1iBytes: knownNumber(cpu?.cache?.l1i),
    cacheL2Bytes: knownNumber(cpu?.cache?.l2),
    cacheL3Bytes: knownNumber(cpu?.cache?.l3),
  };
}

/** Module serial numbers are left out: they say nothing about speed and identify the machine. */
export function memoryInventory(layout: readonly MemoryModuleAnswer[] | undefined): MemoryInventory {
  const modules = (layout ?? [])
    .filter((m) => m.size > 0)
    .map((m) => ({
      bank: knownText(m.bank),
      sizeBytes: knownNumber(m.size),
      type: knownText(m.type),
      clockMHz: knownNumber(m.clockSpeed),
      formFactor: knownText(m.formFactor),
      manufacturer: knownText(m.manufacturer),
      partNumber: knownText(m.partNum),
    }));
  const installed = modules.reduce((sum, m) => sum + (m.sizeBytes === UNKNOWN ? 0 : m.sizeBytes), 0);
  return { installedBytes: knownNumber(installed), modules };
}

export function osFacts(os: OsAnswer | undefined): OsFacts {
  return {
    distro: knownText(os?.distro),
    release: knownText(os?.release),
    codename: knownText(os?.codename),
    kernel: knownText(os?.kernel),
    arch: knownText(os?.arch),
  };
}

/** The filesystem mounted where the data folder's mount is (df's line for it). */
export function filesystemFacts(
  mountPoint: string | undefined,
  sizes: readonly FsAnswer[] | undefined,
): FilesystemFacts {
  const fs = mountPoint === undefined ? undefined : sizes?.find((f) => f.mount === mountPoint);
  return { mount: knownText(mountPoint), type: knownText(fs?.type), sizeBytes: knownNumber(fs?.size) };
}
