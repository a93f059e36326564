import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcParseError } from './errors.js';

const CPU_DIR = /^cpu\d+$/;
const GOVERNOR = /^[A-Za-z0-9_-]+$/;

/**
 * The distinct cpufreq governors of all CPUs, sorted; ['none'] when there is no cpufreq at all (most VMs and
 * containers). Offline CPUs lose their cpufreq folder and are skipped. Unlike fingerprint's governor(), which
 * names cpu0's only, this looks at every CPU: one CPU left on powersave is enough to bend a benchmark.
 */
export function readGovernors(sysCpu: string): string[] {
  let cpus: string[];
  try {
    cpus = readdirSync(sysCpu).filter((e) => CPU_DIR.test(e));
  } catch {
    return ['none'];
  }
  const found = new Set<string>();
  for (const cpu of cpus) {
    const g = readGovernor(join(sysCpu, cpu, 'cpufreq', 'scaling_governor'));
    if (g !== undefined) found.add(g);
  }
  return found.size > 0 ? [...found].sort() : ['none'];
}

function readGovernor(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const name = text.trim();
  if (name === '') return undefined;
  if (!GOVERNOR.test(name)) throw new ProcParseError(file, 1, name, 'a governor is one word such as "performance"');
  return name;
}
