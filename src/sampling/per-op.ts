import { InvalidRateError } from './errors.js';
import type { HostUsage } from './host-usage.js';

/** Host resources per query, as in the reference "relative QPS" tables. */
export interface PerOp {
  /** cpuBusyPct / QPS: the studies' cpu/o. Tiny numbers; cpuMicrosPerOp reads better. */
  cpuPerOp: number;
  /** CPU time per query in microseconds: cpu/o x CPUs x 1e4. */
  cpuMicrosPerOp: number;
  csPerOp: number;
  readsPerOp: number;
  readKBPerOp: number;
  writeKBPerOp: number;
}

export function perOperation(usage: HostUsage, qps: number): PerOp {
  if (!Number.isFinite(qps) || qps <= 0) throw new InvalidRateError('qps', qps);
  const cpuPerOp = usage.cpuBusyPct / qps;
  return {
    cpuPerOp,
    // percent of all CPUs x CPUs / 100 = CPU-seconds per second; x 1e6 = microseconds: hence x 1e4.
    cpuMicrosPerOp: cpuPerOp * usage.cpus * 1e4,
    csPerOp: usage.csPerSec / qps,
    readsPerOp: usage.readsPerSec / qps,
    readKBPerOp: usage.readKBPerSec / qps,
    writeKBPerOp: usage.writeKBPerSec / qps,
  };
}
