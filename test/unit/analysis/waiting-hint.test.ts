import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hintOf } from '../../../src/analysis/verdict.js';
import type { SampleInput, SampleRecord } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

/** Three runs of one side, alike but for the figures given. */
function side(role: SampleInput['role'], over: Partial<SampleInput>): SampleRecord[] {
  return [1, 2, 3].map((round) => {
    const { host, ...rest } = sampleInput({ round, role, dbCounters: {}, ...over });
    return { ...rest, host: host as Record<string, unknown>, id: round, sessionId: 1, createdAt: '2026-01-01' };
  });
}

describe('the hint of a regression: resources, else the time off CPU', () => {
  test('no resource grew, off-CPU time did: the time went to waiting', () => {
    const hint = hintOf(
      side('baseline', { offCpuMicrosPerOp: 500 }),
      side('candidate', { offCpuMicrosPerOp: 900, cpuPerOp: 0.0044, cpuMicrosPerOp: 176 }),
    );
    assert.deepEqual(hint, [{ metric: 'offµs/o', baseline: 500, candidate: 900, ratio: 1.8 }]);
  });

  test('a resource that grew is the hint, however much off-CPU time grew too', () => {
    const hint = hintOf(
      side('baseline', { offCpuMicrosPerOp: 500, writeKBPerOp: 1 }),
      side('candidate', { offCpuMicrosPerOp: 2000, writeKBPerOp: 1.57 }),
    );
    assert.deepEqual(
      hint.map((h) => [h.metric, h.ratio]),
      [['wKB/o', 1.57]],
    );
  });

  test('off-CPU time under the hint factor (x1.04) is no hint', () => {
    const hint = hintOf(side('baseline', { offCpuMicrosPerOp: 500 }), side('candidate', { offCpuMicrosPerOp: 520 }));
    assert.deepEqual(hint, []);
  });

  test('samples stored before off-CPU time existed give no hint of it', () => {
    assert.deepEqual(hintOf(side('baseline', {}), side('candidate', {})), []);
  });

  test('cpuµs/o restates cpu/o: CPU is hinted once', () => {
    const hint = hintOf(
      side('baseline', { cpuPerOp: 0.005, cpuMicrosPerOp: 200 }),
      side('candidate', { cpuPerOp: 0.01, cpuMicrosPerOp: 400 }),
    );
    assert.deepEqual(
      hint.map((h) => h.metric),
      ['cpu/o'],
    );
  });
});
