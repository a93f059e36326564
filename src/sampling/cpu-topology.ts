import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CpuTopology {
  sockets: number;
  /** Physical cores over all sockets. */
  cores: number;
  /** Logical CPUs (hardware threads) online. */
  threads: number;
  smt: 'on' | 'off';
}

/** One logical CPU's place: its socket and its core within the socket (core ids repeat across sockets). */
export interface CpuPlace {
  packageId: string;
  coreId: string;
}

export function topologyFromPlaces(places: readonly CpuPlace[]): CpuTopology {
  const sockets = new Set(places.map((p) => p.packageId)).size;
  const cores = new Set(places.map((p) => `${p.packageId}/${p.coreId}`)).size;
  const threads = places.length;
  return { sockets, cores, threads, smt: threads > cores ? 'on' : 'off' };
}

/** Reads /sys/devices/system/cpu/cpuN/topology; undefined when the kernel or a container hides it. */
export function readCpuTopology(sysCpu: string): CpuTopology | undefined {
  let entries: string[];
  try {
    entries = readdirSync(sysCpu).filter((e) => /^cpu\d+$/.test(e));
  } catch {
    return undefined;
  }
  const places = entries.flatMap((cpu) => {
    const place = readPlace(join(sysCpu, cpu, 'topology'));
    return place ? [place] : []; // offline CPUs have no topology
  });
  return places.length > 0 ? topologyFromPlaces(places) : undefined;
}

function readPlace(dir: string): CpuPlace | undefined {
  try {
    return {
      packageId: readFileSync(join(dir, 'physical_package_id'), 'utf8').trim(),
      coreId: readFileSync(join(dir, 'core_id'), 'utf8').trim(),
    };
  } catch {
    return undefined;
  }
}
