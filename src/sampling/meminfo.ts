import { lineError, parseCounter, sourceLines } from './counter.js';
import { ProcParseError } from './errors.js';

/** The two /proc/meminfo figures qpswatch uses, in bytes. */
export interface Meminfo {
  totalBytes: number;
  /** MemAvailable: the kernel's estimate of what can be allocated without swapping (free + reclaimable cache). */
  availableBytes: number;
}

// "Name:   value kB", or "Name:   value" for the HugePages_* counts. Names hold letters, digits, _ and "(anon)".
const LINE = /^([A-Za-z0-9_()]+):\s+(\S+)(?:\s+(\S+))?$/;

/**
 * Parses /proc/meminfo strictly: every line must have the kernel's shape, so a cut or foreign file is refused
 * instead of read as zero. MemAvailable exists since Linux 3.14; older kernels are refused rather than guessed at.
 */
export function parseMeminfo(text: string, file = '/proc/meminfo'): Meminfo {
  const values = new Map<string, number>();
  for (const src of sourceLines(file, text)) {
    const m = LINE.exec(src.text.trim());
    if (m === null) throw lineError(src, 'expected "Name: value kB"');
    const [, name = '', token, unit] = m;
    if (unit !== undefined && unit !== 'kB') throw lineError(src, `${name} has unit "${unit}", expected kB`);
    const value = parseCounter(src, token, name);
    values.set(name, unit === 'kB' ? value * 1024 : value);
  }
  return { totalBytes: required(values, 'MemTotal', file), availableBytes: required(values, 'MemAvailable', file) };
}

function required(values: Map<string, number>, name: string, file: string): number {
  const value = values.get(name);
  if (value === undefined) {
    throw new ProcParseError(file, 0, '', `no "${name}" line (MemAvailable needs Linux 3.14 or later)`);
  }
  return value;
}
