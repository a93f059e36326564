import { fields, lineError, parseCounter, sourceLines, type SourceLine } from './counter.js';
import { ProcParseError } from './errors.js';

/** The aggregate "cpu" line of /proc/stat, in jiffies (USER_HZ ticks) summed over all CPUs. */
export interface CpuJiffies {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
}

export interface ProcStat {
  cpu: CpuJiffies;
  /** Online CPUs: the number of cpuN lines. */
  cpus: number;
  /** Context switches since boot. */
  ctxt: number;
}

export const CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;

/**
 * Parses /proc/stat. guest and guest_nice are left out on purpose: the kernel already counts them in user and nice.
 * Needs the steal column, so kernels older than 2.6.11 are refused rather than read wrongly.
 */
export function parseProcStat(text: string, file = '/proc/stat'): ProcStat {
  let cpu: CpuJiffies | undefined;
  let cpus = 0;
  let ctxt: number | undefined;
  for (const src of sourceLines(file, text)) {
    // The intr and softirq lines hold hundreds of numbers that are not needed: skip them before splitting.
    if (!src.text.startsWith('cpu') && !src.text.startsWith('ctxt')) continue;
    const [key, ...rest] = fields(src.text);
    if (key === 'cpu') cpu = parseCpuLine(src, rest);
    else if (key !== undefined && /^cpu\d+$/.test(key)) {
      parseCpuLine(src, rest);
      cpus += 1;
    } else if (key === 'ctxt') ctxt = parseCounter(src, rest[0], 'ctxt');
  }
  if (cpu === undefined) throw new ProcParseError(file, 0, '', 'no aggregate "cpu" line');
  if (cpus === 0) throw new ProcParseError(file, 0, '', 'no "cpuN" lines, so the number of CPUs is unknown');
  if (ctxt === undefined) throw new ProcParseError(file, 0, '', 'no "ctxt" line');
  return { cpu, cpus, ctxt };
}

function parseCpuLine(src: SourceLine, tokens: string[]): CpuJiffies {
  if (tokens.length < CPU_FIELDS.length) {
    throw lineError(src, `a cpu line needs ${CPU_FIELDS.length} counters, it has ${tokens.length}`);
  }
  const n = (i: number): number => parseCounter(src, tokens[i], CPU_FIELDS[i] as string);
  return { user: n(0), nice: n(1), system: n(2), idle: n(3), iowait: n(4), irq: n(5), softirq: n(6), steal: n(7) };
}
