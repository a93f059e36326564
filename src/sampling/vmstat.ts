import { fields, lineError, parseCounter, sourceLines } from './counter.js';
import { ProcParseError } from './errors.js';

/** Swap traffic since boot, from /proc/vmstat: pages swapped in and out. */
export interface SwapCounters {
  pswpin: number;
  pswpout: number;
}

const NAME = /^[a-z0-9_]+$/;

/** Parses /proc/vmstat strictly: every line is one lower-case name and one counter. */
export function parseVmstat(text: string, file = '/proc/vmstat'): SwapCounters {
  const values = new Map<string, number>();
  for (const src of sourceLines(file, text)) {
    const parts = fields(src.text);
    const [name = '', token] = parts;
    if (parts.length !== 2 || !NAME.test(name)) throw lineError(src, 'expected "name counter"');
    values.set(name, parseCounter(src, token, name));
  }
  const get = (name: keyof SwapCounters): number => {
    const value = values.get(name);
    if (value === undefined) throw new ProcParseError(file, 0, '', `no "${name}" line`);
    return value;
  };
  return { pswpin: get('pswpin'), pswpout: get('pswpout') };
}
