import { createHash } from 'node:crypto';
import type { HostFingerprint } from './fingerprint.js';

const GIB = 1024 ** 3;

/**
 * A short stable id of the fields that make results comparable. Memory counts in whole GiB rounded up: MemTotal is the
 * installed RAM less a few percent that the kernel reserves, and that share moves between kernels without making the
 * host another host; rounding up lands on the installed size and stays there. The inventory is left out by name:
 * it describes the host for people and changes (firmware updates, filesystem size) without making it another host.
 */
export function fingerprintId(fp: HostFingerprint): string {
  const { memoryBytes, inventory: _inventory, ...rest } = fp;
  const comparable: Record<string, string | number | boolean> = { ...rest, memoryGiB: Math.ceil(memoryBytes / GIB) };
  const sorted = Object.fromEntries(
    Object.keys(comparable)
      .sort()
      .map((k) => [k, comparable[k]]),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16);
}

/**
 * The host class: the hardware alone (CPU, topology, memory), without what a host's software or its disk adds to its
 * fingerprint. Hosts of one class share their releases out with benchmark_once_per: host_class.
 */
export function hostClassId(fp: HostFingerprint): string {
  const hardware = {
    cpuModel: fp.cpuModel,
    sockets: fp.sockets,
    cores: fp.cores,
    threads: fp.threads,
    smt: fp.smt,
    numaNodes: fp.numaNodes,
    memoryGiB: Math.ceil(fp.memoryBytes / GIB),
    testMark: fp.testMark ?? '',
  };
  return createHash('sha256').update(JSON.stringify(hardware)).digest('hex').slice(0, 16);
}
