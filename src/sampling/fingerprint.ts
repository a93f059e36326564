import { readdirSync, readFileSync } from 'node:fs';
import { release } from 'node:os';
import si from 'systeminformation';
import { ExecNotFoundError, run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { readCpuTopology, type CpuTopology } from './cpu-topology.js';
import { describeDataDevice, findDataDevice, type DataDeviceOptions } from './data-device.js';
import { defaultHostPaths, type HostPaths } from './host-paths.js';
import { readCpuidle } from './idle-states.js';

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
}

export interface FingerprintOptions extends DataDeviceOptions {
  compilerArgv?: readonly string[];
  /** Whether this session holds the idle states (see holdIdleStates); default false. */
  idleStatesHeld?: boolean;
  /** The compiler's run is logged through exec when given. */
  log?: Logger;
}

/**
 * Cheap sources first (measured on a 2-CPU VM): /proc and /sys reads take well under a millisecond and
 * si.mem() about 1-3 ms, while si.cpu() and si.osInfo() take 35-60 ms each because they run helper programs.
 * So si.cpu() is only the fallback when /proc/cpuinfo or /sys topology are hidden, and the kernel release comes from
 * os.release() (uname, the same value si.osInfo() reports).
 */
export async function hostFingerprint(dataDir: string, opts: FingerprintOptions = {}): Promise<HostFingerprint> {
  const paths: HostPaths = { ...defaultHostPaths(), ...opts.paths };
  const device = findDataDevice(dataDir, opts);
  const [mem, compiler, cpu] = await Promise.all([
    si.mem(),
    compilerVersion(opts.compilerArgv ?? ['cc', '--version'], opts.log),
    cpuFacts(paths),
  ]);
  return {
    ...cpu,
    numaNodes: numaNodes(paths.sysNode),
    memoryBytes: mem.total,
    kernel: release(),
    governor: governor(paths.sysCpu),
    dataDevice: describeDataDevice(device),
    filesystem: device.mount?.fsType ?? 'unknown',
    compiler,
    ...cpuidleFacts(paths.sysCpu),
    idleStatesHeld: opts.idleStatesHeld ?? false,
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
  const c = await si.cpu();
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
