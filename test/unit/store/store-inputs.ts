import type { HostInput, SampleInput, SessionInput, TargetRef } from '../../../src/store/index.js';

/** Inputs for store tests: valid by default, each test changes only what it is about. */

export function hostInput(overrides: Partial<HostInput> = {}): HostInput {
  return {
    fingerprintId: 'fp-4c-16g-nvme',
    fingerprint: { cpuModel: 'AMD EPYC 7B13', cores: 4, smt: false, memoryBytes: 17_179_869_184, kernel: '6.1.0' },
    ...overrides,
  };
}

export function targetRef(name: string, version: string): TargetRef {
  return {
    name,
    flavor: 'mariadb',
    version,
    binary: `/var/lib/qpswatch/builds/${name}/bin/mariadbd`,
    serverProfile: 'default',
    description: { kind: 'built', tag: `mariadb-${version}`, buildKey: `k-${version}` },
  };
}

export function sessionInput(hostId: number, overrides: Partial<SessionInput> = {}): SessionInput {
  return {
    kind: 'compare',
    hostId,
    baseline: targetRef('mariadb-10.11.9', '10.11.9'),
    candidate: targetRef('mariadb-10.11.10', '10.11.10'),
    suite: 'quick',
    rounds: 2,
    pid: 4242,
    settings: { threshold: 0.95, order: 'BCCB', seconds: 10 },
    ...overrides,
  };
}

export function sampleInput(overrides: Partial<SampleInput> = {}): SampleInput {
  return {
    round: 1,
    role: 'baseline',
    targetName: 'mariadb-10.11.9',
    test: 'oltp_read_only',
    threads: 4,
    seconds: 10,
    qps: 12_345.67,
    tps: 771.6,
    latencyAvgMs: 5.18,
    latencyP95Ms: 6.91,
    latencyMaxMs: 22.4,
    errors: 0,
    reconnects: 0,
    cpuPerOp: 0.0061,
    cpuMicrosPerOp: 244,
    csPerOp: 1.9,
    readsPerOp: 0,
    readKBPerOp: 0,
    writeKBPerOp: 0.012,
    host: { cpu: { user: 71.2, system: 18.3, idle: 10.5 }, csPerSec: 23_456, disk: { device: 'nvme0n1', reads: 0 } },
    dbCounters: {
      Innodb_rows_read: { delta: 1_728_000, perOp: 14.0 },
      Innodb_data_written: { delta: 1_048_576, perOp: 8.49 },
      Threads_running: { delta: -2, perOp: -0.0000162 },
    },
    ...overrides,
  };
}
