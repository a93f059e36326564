import { readdirSync, readFileSync } from 'node:fs';
import { release, totalmem } from 'node:os';
import { ExecNotFoundError, run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { readCpuTopology, type CpuTopology } from './cpu-topology.js';
import { describeDataDevice, findDataDevice, type DataDeviceOptions } from './data-device.js';
import { defaultHostPaths, type HostPaths } from './host-paths.js';
import { readCpuidle } from './idle-states.js';
import { collectInventory, systeminformation, type HostInventory, type InventoryOptions } from './inventory.js';

/** What a result depends on besides the server: results from different fingerprints are never compared. */
export interface HostFingerprint {
  cpuModel: string;
  sockets: number;
  cores: number;
  threads: number;
  smt: 'on' | 'off';
  numaNodes: number;
  memoryBytes: number;
  kernel: string;
  /** scaling_governor of cpu0, or 'none' when there is no cpufreq (most VMs). */
  governor: string;
  /** describeDataDevice() of the data folder's device. */
  dataDevice: string;
  filesystem: string;
  /** First line of `cc --version`, or 'none'. */
  compiler: string;
  /** The cpuidle driver and governor ('none' without cpuidle): they set how fast an idle CPU answers. */
  cpuidleDriver: string;
  cpuidleGovernor: string;
  /** Whether the session held the idle states steady (PM QoS latency 0): results with and without differ by times. */
  idleStatesHeld: boolean;
  /** Tests only (fingerprint_test_mark): makes one test machine look like several hosts; absent on real hosts. */
  testMark?: string;
  /** Facts to judge a result by that do not make another host (fingerprintId ignores them); absent in old records. */
  inventory?: HostInventory;
}

export interface FingerprintOptions extends DataDeviceOptions {
  compilerArgv?: readonly string[];
  /** Whether this session holds the idle states (see holdIdleStates); default false. */
  idleStatesHeld?: boolean;
  /** The compiler's run (and a missing inventory source) is logged when given. */
  log?: Logger;
  /** fingerprint_test_mark: '' or absent on a real host. */
  testMark?: string;
  /** The inventory's options, or false to leave it out (when only the id is wanted); collected by default. */
  inventory?: InventoryOptions | false;
}

/**
 * The identity comes from cheap sources (measured on a 2-CPU VM): /proc and /sys reads take well under a millisecond,
 * while si.cpu() and si.osInfo() take 120-600 ms because they run helper programs. So si.cpu() is only the fallback
 * when /proc/cpuinfo or /sys topology are hidden, the kernel release comes from os.release() (uname, the same value
 * si.osInfo() reports) and memory from os.totalmem() (/proc/meminfo's MemTotal, the value si.mem() reported).
 * systeminformation's share is the inventory, collected alongside (about 1.4 s on an idle host, once per call).
 */
export async function hostFingerprint(dataDir: string, opts: FingerprintOptions = {}): Promise<HostFingerprint> {
  const paths: HostPaths = { ...defaultHostPaths(), ...opts.paths };
  const device = findDataDevice(dataDir, opts);
  const inventoryOptions =
    opts.inventory === false ? undefined : { ...(opts.log !== undefined ? { log: opts.log } : {}), ...opts.inventory };
  const [compiler, cpu, inventory] = await Promise.all([
    compilerVersion(opts.compilerArgv ?? ['cc', '--version'], opts.log),
    cpuFacts(paths),
    inventoryOptions === undefined ? undefined : collectInventory(device, inventoryOptions),
  ]);
  return {
    ...cpu,
    numaNodes: numaNodes(paths.sysNode),
    memoryBytes: totalmem(),
    kernel: release(),
    governor: governor(paths.sysCpu),
    dataDevice: describeDataDevice(device),
    filesystem: device.mount?.fsType ?? 'unknown',
    compiler,
    ...cpuidleFacts(paths.sysCpu),
    idleStatesHeld: opts.idleStatesHeld ?? false,
    ...(opts.testMark !== undefined && opts.testMark !== '' ? { testMark: opts.testMark } : {}),
    ...(inventory !== undefined ? { inventory } : {}),
  };
}

function cpuidleFacts(sysCpu: string): Pick<HostFingerprint, 'cpuidleDriver' | 'cpuidleGovernor'> {
  const { driver, governor } = readCpuidle(sysCpu);
  return { cpuidleDriver: driver, cpuidleGovernor: governor };
}

async function cpuFacts(paths: HostPaths): Promise<CpuTopology & { cpuModel: string }> {
  const model = cpuinfoModel(paths.procCpuinfo);
  const topology = readCpuTopology(paths.sysCpu);
  if (model !== undefined && topology !== undefined) return { cpuModel: model, ...topology };
  const c = await systeminformation().cpu();
  const fallback: CpuTopology = {
    sockets: c.processors,
    cores: c.physicalCores,
    threads: c.cores,
    smt: c.cores > c.physicalCores ? 'on' : 'off',
  };
  return { cpuModel: model ?? `${c.manufacturer} ${c.brand}`.trim(), ...(topology ?? fallback) };
}

/** The "model name" of the first CPU; ARM kernels often have none. */
export function cpuinfoModel(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^model name\s*:\s*(.+)$/m.exec(text);
  return match?.[1]?.trim() || undefined;
}

/** A kernel without NUMA support has no node folders: that is one node. */
export function numaNodes(sysNode: string): number {
  try {
    const n = readdirSync(sysNode).filter((e) => /^node\d+$/.test(e)).length;
    return Math.max(n, 1);
  } catch {
    return 1;
  }
}

export function governor(sysCpu: string): string {
  try {
    return readFileSync(`${sysCpu}/cpu0/cpufreq/scaling_governor`, 'utf8').trim() || 'none';
  } catch {
    return 'none';
  }
}

async function compilerVersion(argv: readonly string[], log: Logger | undefined): Promise<string> {
  try {
    const result = await run({ argv, timeoutMs: 10_000, ...(log !== undefined ? { log } : {}) });
    return result.stdout.split('\n')[0]?.trim() || 'none';
  } catch (err) {
    if (err instanceof ExecNotFoundError) return 'none';
    throw err;
  }
}
