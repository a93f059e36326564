import type { HistoryView } from '../../../src/model/index.js';

/**
 * A small hand-made history: base 10.2.30 (imported), 10.3.39, 10.11.9. Relative QPS of point-query.t1 is
 * 9100 / 10000 = 0.91 and 12300 / 10000 = 1.23; its r/o is 0 everywhere (0/0 = 1) and its rKB/o goes from 0 to 0.1
 * (x/0 = inf). insert.t16 was not measured on 10.3.39.
 */
export function sampleHistory(): HistoryView {
  return {
    series: '10.x',
    flavor: 'mariadb',
    baseIndex: 0,
    versions: [
      { version: '10.2.30', label: 'ma100230', imported: true },
      { version: '10.3.39', label: 'ma100339', imported: false },
      { version: '10.11.9', label: '10.11.9', imported: false },
    ],
    tests: [
      {
        test: 'point-query',
        threads: 1,
        figures: [
          { qps: 10000, cpuPerOp: 0.0004, csPerOp: 5, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0.002 },
          { qps: 9100, cpuPerOp: 0.00044, csPerOp: 5.5, readsPerOp: 0, readKBPerOp: 0.1, writeKBPerOp: 0.002 },
          { qps: 12300, cpuPerOp: 0.00032, csPerOp: 4, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0.003 },
        ],
      },
      {
        test: 'insert',
        threads: 16,
        figures: [
          { qps: 2000, cpuPerOp: 0.002, csPerOp: 10, readsPerOp: 0.5, readKBPerOp: 8, writeKBPerOp: 20 },
          null,
          { qps: 1900, cpuPerOp: 0.0021, csPerOp: 11, readsPerOp: 0.5, readKBPerOp: 8, writeKBPerOp: 25 },
        ],
      },
    ],
    host: 'AMD Ryzen 7 7735HS, 8 cores, SMT off',
    generatedAt: '2024-06-01T00:00:00Z',
  };
}

/** The sample history with the checked versions' detectable drops: 10.3.39 checked point-query only, 10.11.9 both. */
export function checkedHistory(): HistoryView {
  const view = sampleHistory();
  const [pointQuery, insert] = view.tests;
  return {
    ...view,
    tests: [
      { ...pointQuery!, detectableDrop: [null, 0.043, 0.12] },
      { ...insert!, detectableDrop: [null, null, 0.05] },
    ],
  };
}

/**
 * A measured series of five versions against base 1.0.0 (tag v1.0.0) and one imported version, 1.0.2: insert.t1 loses
 * 3% at every release, each check with a standard error of 1% in log, so 1.0.4 is chained at 0.97^3 = 0.913 and
 * 1.0.5 at 0.97^4 = 0.885 (interval exp(+-1.96 x 0.02)); point-query.t1 is flat, then a step of -10% at 1.0.4. The
 * imported 1.0.2 has medians only; point-query's 1.0.1 was checked before verdicts kept their standard error.
 */
export function chainedHistory(): HistoryView {
  const versions = ['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4', '1.0.5'];
  const figures = (qps: number) => ({
    qps,
    cpuPerOp: 0.0004,
    csPerOp: 5,
    readsPerOp: 0,
    readKBPerOp: 0,
    writeKBPerOp: 0.002,
  });
  const z = 1.959964;
  const chained = (ratio: number, steps: number, step: 'down' | 'up' | null = null) => {
    const se = 0.01 * Math.sqrt(steps);
    return {
      relativeQps: ratio,
      low: ratio * Math.exp(-z * se),
      high: ratio * Math.exp(z * se),
      steps,
      step: step === null ? null : { direction: step, ratio: 0.9 },
    };
  };
  return {
    series: '1.0',
    flavor: 'mariadb',
    baseIndex: 0,
    versions: versions.map((version) => ({ version, label: `v${version}`, imported: version === '1.0.2' })),
    tests: [
      {
        test: 'insert',
        threads: 1,
        figures: [figures(1000), figures(975), figures(950), figures(930), figures(905), figures(880)],
        chained: [
          chained(1, 0),
          chained(0.97, 1),
          null,
          chained(0.97 ** 2, 2),
          chained(0.97 ** 3, 3),
          chained(0.97 ** 4, 4),
        ],
        threshold: 0.95,
      },
      {
        test: 'point-query',
        threads: 1,
        figures: [figures(5000), figures(5010), figures(4990), figures(5020), figures(4500), figures(4510)],
        chained: [chained(1, 0), null, null, chained(1.0, 1), chained(0.9, 2, 'down'), chained(0.9, 3)],
        threshold: 0.95,
      },
    ],
    host: 'host-1',
    confidence: 0.95,
    generatedAt: '2026-12-01T00:00:00Z',
  };
}
