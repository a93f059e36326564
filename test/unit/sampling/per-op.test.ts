import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PER_OP_FIGURES } from '../../../src/model/index.js';
import { InvalidRateError, perOperation, type HostUsage, type PerOpSample } from '../../../src/sampling/index.js';

type RunUsage = HostUsage & { serverCpuPerSec?: number };

function usage(over: Partial<RunUsage>): RunUsage {
  return {
    seconds: 60,
    cpus: 2,
    usPct: 0,
    syPct: 0,
    cpuBusyPct: 0,
    iowaitPct: 0,
    csPerSec: 0,
    readsPerSec: 0,
    readKBPerSec: 0,
    writesPerSec: 0,
    writeKBPerSec: 0,
    device: 'vda',
    ...over,
  };
}

describe('perOperation', () => {
  // Each expected value worked out by hand from the definitions:
  // cpu/o = busy% / qps; us/op = cpu/o x cpus x 1e4; the rest are rate / qps. Each case names its figures: a
  // figure added to the table gets its own cases.
  const cases: Array<[string, Partial<HostUsage>, number, Partial<PerOpSample>]> = [
    [
      'half of 2 CPUs busy at 10000 qps: 100 us of CPU per query',
      { cpus: 2, cpuBusyPct: 50, csPerSec: 20000, readsPerSec: 100, readKBPerSec: 1600, writeKBPerSec: 5000 },
      10000,
      { cpuPerOp: 0.005, cpuMicrosPerOp: 100, csPerOp: 2, readsPerOp: 0.01, readKBPerOp: 0.16, writeKBPerOp: 0.5 },
    ],
    [
      '48 CPUs all busy at 100000 qps: 480 us per query',
      { cpus: 48, cpuBusyPct: 100, csPerSec: 350000, readsPerSec: 0, readKBPerSec: 0, writeKBPerSec: 80000 },
      100000,
      { cpuPerOp: 0.001, cpuMicrosPerOp: 480, csPerOp: 3.5, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0.8 },
    ],
    [
      'an idle host',
      { cpus: 4 },
      250,
      { cpuPerOp: 0, cpuMicrosPerOp: 0, csPerOp: 0, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0 },
    ],
    [
      'one CPU at 25% and 2.5 qps: 1e5 us (0.1 s) per query',
      { cpus: 1, cpuBusyPct: 25, csPerSec: 5, readsPerSec: 1, readKBPerSec: 4, writeKBPerSec: 10 },
      2.5,
      { cpuPerOp: 10, cpuMicrosPerOp: 100000, csPerOp: 2, readsPerOp: 0.4, readKBPerOp: 1.6, writeKBPerOp: 4 },
    ],
  ];
  for (const [name, over, qps, expected] of cases) {
    test(name, () => {
      const got = perOperation(usage(over), qps, 1);
      for (const key of Object.keys(expected) as Array<keyof PerOpSample>) {
        const want = expected[key]!;
        assert.ok(Math.abs(got[key] - want) <= 1e-12 * Math.max(1, want), `${key}: ${got[key]} != ${want}`);
      }
    });
  }

  for (const qps of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`qps ${qps} is an InvalidRateError`, () => {
      assert.throws(
        () => perOperation(usage({ cpuBusyPct: 50 }), qps, 1),
        (err: unknown) => err instanceof InvalidRateError && err.field === 'qps' && Object.is(err.value, qps),
      );
    });
  }

  for (const threads of [0, -1, Number.NaN]) {
    test(`threads ${threads} is an InvalidRateError`, () => {
      assert.throws(
        () => perOperation(usage({ cpuBusyPct: 50 }), 100, threads),
        (err: unknown) => err instanceof InvalidRateError && err.field === 'threads' && Object.is(err.value, threads),
      );
    });
  }

  test('every figure of the table is computed, finite, from the run', () => {
    const over = { cpus: 2, cpuBusyPct: 50, csPerSec: 10, writeKBPerSec: 3, serverCpuPerSec: 0.4 };
    const got = perOperation(usage(over), 1000, 4);
    assert.deepEqual(
      Object.keys(got),
      PER_OP_FIGURES.map((f) => f.field),
    );
    for (const [field, value] of Object.entries(got)) assert.ok(Number.isFinite(value) && value >= 0, field);
  });

  // offµs/o = threads x 1e6 / qps - the server process's CPU µs per query, at least 0: the wall time per operation
  // that the server's own threads did not spend on a CPU. Other load on the host does not enter it.
  const offCpu: Array<[string, Partial<RunUsage>, number, number, number]> = [
    ['1 thread at 1000 qps, 200 us of server CPU per query: 800 us waiting', { serverCpuPerSec: 0.2 }, 1000, 1, 800],
    ['16 threads at 4000 qps, 4000 us of wall time, 1000 us of server CPU', { serverCpuPerSec: 4 }, 4000, 16, 3000],
    ['an idle server: all of the wall time', { serverCpuPerSec: 0 }, 250, 2, 8000],
    ['a busy host beside it changes nothing', { cpus: 4, cpuBusyPct: 100, serverCpuPerSec: 0.2 }, 1000, 1, 800],
    ['server CPU over the wall time (its background threads) floors at 0', { serverCpuPerSec: 3 }, 1000, 2, 0],
  ];
  for (const [name, over, qps, threads, expected] of offCpu) {
    test(`offµs/o: ${name}`, () => {
      const got = perOperation(usage(over), qps, threads).offCpuMicrosPerOp;
      assert.ok(Math.abs(got - expected) <= 1e-9 * Math.max(1, expected), `${got} != ${expected}`);
    });
  }

  test("offµs/o is unknown (NaN, shown '-') when the server's CPU was not read", () => {
    assert.ok(Number.isNaN(perOperation(usage({}), 1000, 1).offCpuMicrosPerOp));
  });
});
