import type { ComparisonView, RowVerdict, SideSummary } from '../../../src/model/index.js';

/** A small hand-made session: a read test where C is slower and a write test with database counters. */
export function sampleView(): ComparisonView {
  return {
    sessionId: 42,
    suite: 'small-server',
    rounds: 3,
    startedAt: '2024-05-01T10:00:00Z',
    finishedAt: '2024-05-01T12:30:00Z',
    baseline: { name: 'mariadb-10.11.9', flavor: 'mariadb', version: '10.11.9', serverProfile: 'default' },
    candidate: { name: 'mariadb-10.11.10', flavor: 'mariadb', version: '10.11.10', serverProfile: 'default' },
    host: { cpuModel: 'AMD Ryzen 7 7735HS', cores: 8, smt: false, memoryGB: 32, kernel: '6.1.0-18-amd64' },
    tests: [
      {
        test: 'point-query',
        threads: 1,
        baseline: side(12345.4, 12210, 12480, {
          cpuPerOp: 0.000312,
          csPerOp: 5.1,
          readsPerOp: 0,
          readKBPerOp: 0,
          writeKBPerOp: 0.00312,
          qps: 12345.4,
          cpuMicrosPerOp: 24.96,
        }),
        candidate: side(11800.2, 11712, 11904, {
          cpuPerOp: 0.000331,
          csPerOp: 5.12,
          readsPerOp: 0,
          readKBPerOp: 0.0021,
          writeKBPerOp: 0.00308,
          qps: 11800.2,
          cpuMicrosPerOp: 26.48,
        }),
        relativeQps: 11800.2 / 12345.4,
      },
      {
        test: 'update-index',
        threads: 1,
        baseline: side(
          2510,
          2490,
          2533,
          {
            cpuPerOp: 0.00141,
            csPerOp: 14.2,
            readsPerOp: 0.012,
            readKBPerOp: 0.19,
            writeKBPerOp: 22.4,
            qps: 2510,
            cpuMicrosPerOp: 112.8,
          },
          { Innodb_rows_updated: 1, Innodb_data_written: 18120.5 },
        ),
        candidate: side(
          2611,
          2588,
          2650,
          {
            cpuPerOp: 0.00135,
            csPerOp: 13.9,
            readsPerOp: 0.011,
            readKBPerOp: 0.18,
            writeKBPerOp: 20.1,
            qps: 2611,
            cpuMicrosPerOp: 108,
          },
          { Innodb_rows_updated: 1, Innodb_data_written: 16404, Innodb_pages_flushed: 0.51 },
        ),
        relativeQps: 2611 / 2510,
      },
    ],
  };
}

function side(
  qps: number,
  qpsMin: number,
  qpsMax: number,
  perOp: SideSummary['perOp'],
  dbPerOp: Record<string, number> = {},
): SideSummary {
  return { qps, samples: 3, qpsMin, qpsMax, perOp, dbPerOp };
}

/**
 * A judged test's verdict: a paired session's figures (12 pairs, 95% interval 0.96-1.03, 4% detectable), changed by
 * `over`.
 */
export function rowVerdict(kind: RowVerdict['kind'], over: Partial<RowVerdict> = {}): RowVerdict {
  return {
    kind,
    threshold: 0.95,
    pSlower: 0.5,
    pFaster: 0.5,
    baselineSpread: 0.02,
    low: 0.96,
    high: 1.03,
    confidence: 0.95,
    detectableDrop: 0.04,
    pairs: 12,
    noise: 0.03,
    hint: [],
    ...over,
  };
}
