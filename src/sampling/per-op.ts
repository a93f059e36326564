import { cpuMicrosPerOp, type PerOp } from '../model/index.js';
import { InvalidRateError } from './errors.js';
import type { HostUsage } from './host-usage.js';

/** Host resources per query (the model's figure table), and CPU time per query. */
export type PerOpSample = PerOp & { cpuMicrosPerOp: number };

export function perOperation(usage: HostUsage, qps: number): PerOpSample {
  if (!Number.isFinite(qps) || qps <= 0) throw new InvalidRateError('qps', qps);
  const cpuPerOp = usage.cpuBusyPct / qps;
  return {
    cpuPerOp,
    cpuMicrosPerOp: cpuMicrosPerOp(cpuPerOp, usage.cpus),
    csPerOp: usage.csPerSec / qps,
    readsPerOp: usage.readsPerSec / qps,
    readKBPerOp: usage.readKBPerSec / qps,
    writeKBPerOp: usage.writeKBPerSec / qps,
  };
}
