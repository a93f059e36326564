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
