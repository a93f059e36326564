import { performance } from 'node:perf_hooks';
import { median } from '../../src/analysis/index.js';
import {
  parseGlobalStatus,
  takeHostSnapshot,
  type DataDevice,
  type StatusConnection,
} from '../../src/sampling/index.js';

/** What one sample of qpswatch's samplers costs, in milliseconds: medians and the slowest of `count` tries. */
export interface SamplerCost {
  count: number;
  snapshotMs: number;
  /** SHOW GLOBAL STATUS: the round trip, then parsing its rows (readGlobalStatus is the two together). */
  queryMs: number;
  parseMs: number;
  /** All three: one sample; measureTest takes one before and one after each run. */
  sampleMs: number;
  slowestSampleMs: number;
}

/**
 * Times the samplers directly, with the server idle as it is between runs: takeHostSnapshot (two /proc reads) and
 * readGlobalStatus, split into its query and its parse. The QPS ratio cannot resolve costs below its noise; this can.
 */
export async function timeSamplers(status: StatusConnection, device: DataDevice, count: number): Promise<SamplerCost> {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`sampler timing count must be a whole number >= 1, got ${count}`);
  const snapshot: number[] = [];
  const query: number[] = [];
  const parse: number[] = [];
  const sample: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const [rows] = await status.query('SHOW GLOBAL STATUS');
    const t1 = performance.now();
    parseGlobalStatus(rows);
    const t2 = performance.now();
    takeHostSnapshot(device);
    const t3 = performance.now();
    query.push(t1 - t0);
    parse.push(t2 - t1);
    snapshot.push(t3 - t2);
    sample.push(t3 - t0);
  }
  return {
    count,
    snapshotMs: median(snapshot),
    queryMs: median(query),
    parseMs: median(parse),
    sampleMs: median(sample),
    slowestSampleMs: Math.max(...sample),
  };
}
