import { InputError } from '../errors.js';
import type { MemorySettingName } from '../model/index.js';
import { parseVersionRange } from '../version/index.js';
import type { PreparedTarget } from './target.js';

/**
 * What one sysbench row takes in InnoDB, primary key and the k index together, pages not quite full: measured on
 * MariaDB 10.11 (latin1 and utf8mb4 alike, since sysbench's c and pad hold ASCII), 250 bytes per row.
 */
export const BYTES_PER_ROW = 250;
/**
 * A cached pool holds the data with room to spare: the undo log, the adaptive hash and the lock system live there too.
 */
const CACHED_POOL_SHARE = 0.8;
/** IO-bound: the data at least this many times the pool, so most reads miss it. */
const IO_BOUND_FACTOR = 3;
/** A loaded snapshot and the working copy it is restored to, for each of the two targets. */
const DATA_COPIES = 4;
/** Filesystems that keep every page in memory: O_DIRECT fails or means nothing there. */
const MEMORY_FILESYSTEMS = new Set(['tmpfs', 'ramfs']);

/** The suite's data as the estimate counts it: every table of each of its loads (one per level's data set). */
export interface SuiteData {
  suite: string;
  loads: ReadonlyArray<{ tables: number; tableSize: number }>;
}

/** What the refusal compares: the data, each side's buffer pool, and what the host has for them. */
export interface MemoryFacts {
  setting: MemorySettingName;
  data: SuiteData;
  /** Each side's server profile and the innodb_buffer_pool_size its my.cnf gives under this setting. */
  sides: ReadonlyArray<{ profile: string; poolBytes: number }>;
  /** Servers up at once: 2 in the paired design, 1 with whole runs. */
  serversAtOnce: number;
  /** Each server's memory besides its pool (server/memory-need.ts's overhead). */
  overheadBytes: number;
  availableMemoryBytes: number;
  stateDir: string;
  freeDiskBytes: number;
  /** The filesystem of state_dir's work folder. */
  fsType: string;
}

export function estimatedDataBytes(data: SuiteData): number {
  return data.loads.reduce((sum, load) => sum + load.tables * load.tableSize, 0) * BYTES_PER_ROW;
}

/** A memory setting the session cannot honour with this suite, profile or host: one line with the sizes and the fix. */
export class MemorySettingError extends InputError {
  constructor(
    readonly setting: MemorySettingName,
    reason: string,
  ) {
    super(`memory setting ${setting}: ${reason}`);
  }
}

/** The my.cnf options each setting lays over the server profile (the last say, whatever the profile's versions). */
export function memoryOverlay(setting: MemorySettingName, ioBoundPool: string): Record<string, string> {
  // Cached keeps the profile's pool: the check below refuses one too small for the data.
  if (setting === 'cached') return {};
  return { innodb_buffer_pool_size: ioBoundPool, innodb_flush_method: 'O_DIRECT' };
}

/** The target with its server profile under the memory setting: one more override, for every version, applied last. */
export function withMemorySetting(
  target: PreparedTarget,
  setting: MemorySettingName,
  ioBoundPool: string,
): PreparedTarget {
  const set = memoryOverlay(setting, ioBoundPool);
  if (Object.keys(set).length === 0) return target;
  const override = { versions: parseVersionRange('>=0'), set, remove: [] };
  return { ...target, profile: { ...target.profile, overrides: [...target.profile.overrides, override] } };
}

/** The first reason the setting cannot be honoured, checked before anything is loaded; undefined when it can. */
export function memoryProblem(f: MemoryFacts): string | undefined {
  const data = estimatedDataBytes(f.data);
  const dataText =
    `the data of suite ${f.data.suite} (about ${size(data)}: ` +
    `${f.data.loads.map((l) => `${l.tables} table(s) x ${l.tableSize} rows`).join(' + ')} ` +
    `x ${BYTES_PER_ROW} bytes)`;
  if (f.freeDiskBytes < data * DATA_COPIES) {
    return (
      `${dataText} needs about ${size(data * DATA_COPIES)} free under ` +
      `state_dir ${f.stateDir} (a loaded copy and a working copy per server), ` +
      `and it has ${size(f.freeDiskBytes)}: free space there, move state_dir, ` +
      `or use a suite with fewer rows`
    );
  }
  if (f.setting === 'io-bound') {
    if (MEMORY_FILESYSTEMS.has(f.fsType)) {
      return (
        `state_dir ${f.stateDir} is on ${f.fsType}, which keeps every page in ` +
        `memory and has no O_DIRECT: the reads would never reach a disk; move ` +
        `state_dir to a disk filesystem (ext4, xfs)`
      );
    }
    const pool = Math.max(...f.sides.map((s) => s.poolBytes));
    // Each level reads only its own load: the smallest one must be 3 times the pool, not the loads together.
    const smallest = f.data.loads.reduce((a, b) => (b.tables * b.tableSize < a.tables * a.tableSize ? b : a));
    const smallestBytes = smallest.tables * smallest.tableSize * BYTES_PER_ROW;
    if (smallestBytes < pool * IO_BOUND_FACTOR) {
      const which =
        f.data.loads.length > 1
          ? `the smallest load of suite ${f.data.suite} (about ` +
            `${size(smallestBytes)}: ${smallest.tables} table(s) x ` +
            `${smallest.tableSize} rows x ${BYTES_PER_ROW} bytes), which its ` +
            `level's tests read alone,`
          : dataText;
      return (
        `${which} is not ${IO_BOUND_FACTOR} times the buffer pool ` +
        `(io_bound_buffer_pool ${size(pool)}), so most reads would hit the ` +
        `pool: use a suite with at least ` +
        `${Math.ceil((pool * IO_BOUND_FACTOR) / BYTES_PER_ROW)} rows in ` +
        `${f.data.loads.length > 1 ? 'each load' : 'all'}, or a smaller ` +
        `io_bound_buffer_pool`
      );
    }
    return undefined;
  }
  const needPool = data / CACHED_POOL_SHARE;
  const small = f.sides.find((s) => s.poolBytes < needPool);
  if (small === undefined) return poolsOverHost(f);
  const hostNeed = (needPool + f.overheadBytes) * f.serversAtOnce;
  const fix =
    hostNeed > f.availableMemoryBytes
      ? `this host (${size(f.availableMemoryBytes)} available, ` +
        `${f.serversAtOnce} server(s) at once) cannot cache it: use a suite ` +
        `with fewer rows, or run it io-bound only`
      : `set innodb_buffer_pool_size to ${Math.ceil(needPool / 1024 ** 2)}M or ` +
        `more in server profile ${small.profile}, or use a suite with fewer ` +
        `rows`;
  return (
    `${dataText} does not fit in the buffer pool of server profile ` +
    `${small.profile} (innodb_buffer_pool_size ${size(small.poolBytes)}; it ` +
    `needs ${size(needPool)} to hold the data with room to spare): ${fix}`
  );
}

/** Cached pools that hold the data must also fit the host, all servers up at once: else the OS would swap them out. */
function poolsOverHost(f: MemoryFacts): string | undefined {
  const each = f.sides.map((s) => s.poolBytes + f.overheadBytes);
  // Paired: both servers at once; whole runs: the larger one alone.
  const need = f.serversAtOnce > 1 ? each.reduce((sum, b) => sum + b, 0) : Math.max(...each);
  // The paired session's own check (paired-memory.ts checkPairedMemory) leaves a tenth of the memory free: the same
  // margin here, so a setting that passes now is not refused after its session was created.
  if (need <= f.availableMemoryBytes * 0.9) return undefined;
  return (
    `the buffer pools of the ${f.serversAtOnce} server(s) up at once ` +
    `(${f.sides.map((s) => `${s.profile} ${size(s.poolBytes)}`).join(', ')}, ` +
    `plus ${size(f.overheadBytes)} each) need about ${size(need)}, and this ` +
    `host has ${size(f.availableMemoryBytes)} available: use server ` +
    `profiles with a smaller innodb_buffer_pool_size that still holds the ` +
    `data, the whole-run design (--design runs), or run it io-bound only`
  );
}

/** Refuses (MemorySettingError) a setting that cannot be honoured; see memoryProblem. */
export function checkMemorySetting(f: MemoryFacts): void {
  const problem = memoryProblem(f);
  if (problem !== undefined) throw new MemorySettingError(f.setting, problem);
}

function size(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${Math.ceil(bytes / 1024)} KiB`;
}
