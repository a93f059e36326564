import { InputError } from '../errors.js';

export interface QuietHostLimits {
  /**
   * CPU busy (user+nice+system+irq+softirq+steal, percent of all CPUs) over the observation window. The check runs
   * while qpswatch has no mysqld or sysbench running, so everything busy host-wide belongs to someone else.
   * Steal counts: a noisy neighbour on a VM host bends results as much as a local process.
   */
  maxBusyPercent: number;
  /** MemAvailable from /proc/meminfo, the lower of the two reads. */
  minAvailableBytes: number;
  /** Swap pages in + out per second over the window (/proc/vmstat pswpin + pswpout). */
  maxSwapPagesPerSecond: number;
  /**
   * cpufreq governors allowed; empty = any. A host without cpufreq (VMs, containers) always passes and is recorded
   * as "none". The default is empty because the usual test hosts are VMs (no cpufreq) and laptops (powersave or
   * schedutil, no performance): demanding 'performance' would make qpswatch wait forever on both. The governor
   * is part of the host fingerprint anyway, so results taken under different governors are never compared.
   */
  governors: readonly string[];
}

export interface QuietHostObservation {
  /** Measured (monotonic clock) time between the two reads, in seconds. */
  windowSeconds: number;
  busyPercent: number;
  availableBytes: number;
  swapPagesPerSecond: number;
  /** Distinct governors of all CPUs, sorted; ['none'] when there is no cpufreq. */
  governors: string[];
  /** From the second read; reported for the log, not judged (it counts tasks waiting on I/O too). */
  loadAverage1: number;
  /**
   * The cpuidle driver and governor ('none' without cpuidle): reported, not judged; they set how fast idle CPUs wake.
   */
  cpuidleDriver: string;
  cpuidleGovernor: string;
}

export interface QuietHostVerdict {
  quiet: boolean;
  /** One sentence per limit exceeded. */
  reasons: string[];
  observation: QuietHostObservation;
}

/** A fresh object each call so no caller can change another's defaults. */
export function defaultQuietHostLimits(): QuietHostLimits {
  return { maxBusyPercent: 10, minAvailableBytes: 2 * 1024 ** 3, maxSwapPagesPerSecond: 10, governors: [] };
}

/** A quiet-host limit that is not a usable number. */
export class QuietHostLimitError extends InputError {
  constructor(
    readonly field: keyof QuietHostLimits,
    readonly value: unknown,
    readonly expected: string,
  ) {
    // NaN and Infinity would print as null in JSON
    const shown = typeof value === 'number' ? String(value) : JSON.stringify(value);
    super(`quiet host limit ${field} must be ${expected}, got ${shown}`);
  }
}

/** Pure: compares one observation with the limits and says why the host is not quiet, if it is not. */
export function judgeQuietHost(obs: QuietHostObservation, limits: QuietHostLimits): QuietHostVerdict {
  checkLimits(limits);
  const window = `over ${fmt(obs.windowSeconds)} s`;
  const reasons: string[] = [];
  if (obs.busyPercent > limits.maxBusyPercent) {
    reasons.push(
      `CPU busy ${fmt(obs.busyPercent)}% ${window}, limit ${fmt(limits.maxBusyPercent)}% (other processes are running)`,
    );
  }
  if (obs.availableBytes < limits.minAvailableBytes) {
    reasons.push(
      `available memory ${gib(obs.availableBytes)}, limit ${gib(limits.minAvailableBytes)} ` +
        '(other processes hold memory)',
    );
  }
  if (obs.swapPagesPerSecond > limits.maxSwapPagesPerSecond) {
    reasons.push(
      `swapping ${fmt(obs.swapPagesPerSecond)} pages/s ${window}, limit ${fmt(limits.maxSwapPagesPerSecond)} pages/s`,
    );
  }
  const wrong = disallowedGovernors(obs.governors, limits.governors);
  if (wrong.length > 0) {
    reasons.push(`CPU governor ${wrong.join(', ')}, allowed: ${limits.governors.join(', ')}`);
  }
  return { quiet: reasons.length === 0, reasons, observation: obs };
}

function disallowedGovernors(seen: readonly string[], allowed: readonly string[]): string[] {
  if (allowed.length === 0) return [];
  return seen.filter((g) => g !== 'none' && !allowed.includes(g));
}

function checkLimits(limits: QuietHostLimits): void {
  const nonNegative = ['maxBusyPercent', 'minAvailableBytes', 'maxSwapPagesPerSecond'] as const;
  for (const field of nonNegative) {
    const value = limits[field];
    if (!Number.isFinite(value) || value < 0) throw new QuietHostLimitError(field, value, 'a finite number >= 0');
  }
  if (limits.maxBusyPercent > 100) {
    throw new QuietHostLimitError('maxBusyPercent', limits.maxBusyPercent, 'a percentage from 0 to 100');
  }
  if (!limits.governors.every((g) => typeof g === 'string' && g !== '')) {
    throw new QuietHostLimitError('governors', limits.governors, 'a list of governor names such as ["performance"]');
  }
}

/** One decimal at most, none when it is 0: "5 s" for a measured 5.0004 s, "37.5%". */
function fmt(n: number): string {
  return String(Number(n.toFixed(1)));
}

function gib(bytes: number): string {
  return `${fmt(bytes / 1024 ** 3)} GiB`;
}
