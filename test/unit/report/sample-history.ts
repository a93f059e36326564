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
  return { ...view, tests: [{ ...pointQuery!, detectableDrop: [null, 0.043, 0.12] }, { ...insert!, detectableDrop: [null, null, 0.05] }] };
}
