import { perOpOfRun, type PerOp, type UsageRates } from '../model/index.js';
import { InvalidRateError } from './errors.js';

/** Every figure of the model's table for one run: host resources and time per query. */
export type PerOpSample = Required<PerOp>;

/**
 * The run's figures, each computed by its entry of the figure table from the host's usage (with the measured server's
 * own CPU, when it was read), the QPS and threads.
 */
export function perOperation(usage: UsageRates, qps: number, threads: number): PerOpSample {
  if (!Number.isFinite(qps) || qps <= 0) throw new InvalidRateError('qps', qps);
  if (!Number.isFinite(threads) || threads <= 0) throw new InvalidRateError('threads', threads);
  return perOpOfRun({ usage, qps, threads });
}
