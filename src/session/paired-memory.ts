import { readFileSync } from 'node:fs';
import type { SampleRole } from '../model/index.js';
import { InputError } from '../errors.js';
import { parseMeminfo } from '../sampling/index.js';
import { expectedServerBytes } from '../server/index.js';
import type { TargetInstance } from './target-instance.js';

/**
 * Both servers of a paired session stay up for the whole session, so both must fit in memory at once, with room to
 * spare. Checked before any loading: a small-server load takes an hour per target.
 */
export function checkPairedMemory(instances: Record<SampleRole, TargetInstance>): void {
  const need = (['baseline', 'candidate'] as const).reduce(
    (sum, role) => sum + expectedServerBytes(instances[role].myCnfText()),
    0,
  );
  const available = parseMeminfo(readFileSync('/proc/meminfo', 'utf8')).availableBytes;
  if (need > available * 0.9) {
    const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
    throw new InputError(
      `the two servers of a paired session need about ${gib(need)} together ` +
        `(buffer pools plus overhead), and this host has ${gib(available)} ` +
        `available: ` +
        ('use a server profile with a smaller innodb_buffer_pool_size, or the ' +
          'whole-run design (--design runs), which runs one server at a time'),
    );
  }
}
