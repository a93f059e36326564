import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectableDropAt } from '../../../src/analysis/index.js';
import { calibratedDrops, calibrationExpectation } from '../../../src/session/index.js';
import type { CalibrationRecord } from '../../../src/store/index.js';

const figure = { threads: 1, pairs: 20, pairSeconds: 3, pairsNeeded: 14, minutesNeeded: 0.7, detectableDrop: 0.04 };

function record(instanceSpread: number | null): CalibrationRecord {
  return {
    id: 1,
    hostId: 1,
    sessionId: 1,
    suite: 'quick',
    target: 'local',
    settings: { alpha: 0.01 },
    createdAt: '2026-12-03T10:00:00.000Z',
    tests: [
      { test: 'own', ...figure, noise: 0.03, instanceSpread: 0.03 },
      { test: 'suite', ...figure, noise: 0.03 },
    ],
    instanceSpread,
  } as unknown as CalibrationRecord;
}

describe("the pre-flight's forecast", () => {
  const settings = { alpha: 0.01, family: 2, maxPairs: 200 };
  test("counts each test's calibrated spread between instances, else the calibration's median", () => {
    const [own, suite] = calibratedDrops(record(0.02), 17, 0.01, 200);
    const at = (v: number): number => detectableDropAt(17, 0.03, { ...settings, instanceVariance: v });
    assert.equal(own!.detectableDrop, at(2 * 0.03 ** 2));
    assert.equal(suite!.detectableDrop, at(2 * 0.02 ** 2));
    assert.ok(own!.detectableDrop > at(0) && suite!.detectableDrop > at(0), 'wider than pair noise alone');
  });
  test('a calibration from before the spread was measured prices pair noise alone', () => {
    const [, suite] = calibratedDrops(record(null), 17, 0.01, 200);
    assert.equal(suite!.detectableDrop, detectableDropAt(17, 0.03, settings));
  });
  test('several sweeps to a block: the offsets average over fewer blocks', () => {
    const [one] = calibratedDrops(record(0.02), 24, 0.01, 200, 1);
    const [three] = calibratedDrops(record(0.02), 24, 0.01, 200, 3);
    assert.equal(
      three!.detectableDrop,
      detectableDropAt(24, 0.03, { ...settings, instanceVariance: 2 * 0.03 ** 2, pairsPerBlock: 3 }),
    );
    assert.ok(three!.detectableDrop > one!.detectableDrop);
  });
  test('the expectation of a stored calibration counts the spread too', () => {
    const e = calibrationExpectation(record(0.02), 8, 200, 0.01);
    assert.ok(e.drops[1]!.detectableDrop > detectableDropAt(e.pairs, 0.03, settings));
  });
});
