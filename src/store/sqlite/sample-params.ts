import type { SampleInput } from '../sample-types.js';
import { perOpParams } from '../roles/figure-row.js';

/** Splits a checked sample into the named parameters of its samples row and its host_metrics row. */
export function sampleParams(sessionId: number, sample: SampleInput, createdAt: string) {
  return {
    sample: {
      session_id: sessionId,
      round: sample.round,
      role: sample.role,
      target_name: sample.targetName,
      test: sample.test,
      threads: sample.threads,
      seconds: sample.seconds,
      qps: sample.qps,
      tps: sample.tps,
      latency_avg_ms: sample.latencyAvgMs,
      latency_p95_ms: sample.latencyP95Ms,
      latency_max_ms: sample.latencyMaxMs,
      errors: sample.errors,
      reconnects: sample.reconnects,
      created_at: createdAt,
    },
    hostMetrics: {
      ...perOpParams(sample),
      host_usage: JSON.stringify(sample.host),
    },
  };
}
