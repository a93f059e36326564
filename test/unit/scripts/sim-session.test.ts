import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  beforeSeries,
  pairValue,
  sessionDraws,
  simulateSession,
  simulateSessionBefore,
  syntheticModel,
  type SimSettings,
} from '../../../scripts/bench/sim-session.js';

const settings: SimSettings = {
  alpha: 0.01,
  confidence: 0.95,
  maxPairs: 200,
  threshold: 0.95,
  instanceSeconds: 15,
  instanceSd: 0.02,
};
const model = syntheticModel({ noise: 0.08, tests: 8, seconds: 1, hiccups: 0, sweeps: 500, seed: 3 }, settings);

describe("bench:sim's simulated sessions", () => {
  test('a session index gives the same draws on every call, in any order of use', () => {
    const a = sessionDraws(model, 7, 4);
    const b = sessionDraws(model, 7, 4);
    const offsets = b.offsets(2);
    assert.deepEqual(a.offsets(0), b.offsets(0));
    assert.deepEqual(a.offsets(2), offsets);
    assert.deepEqual(a.sweep(9), b.sweep(9));
    assert.notDeepEqual(sessionDraws(model, 7, 5).offsets(0), a.offsets(0), 'another session draws its own');
  });

  test('the rule before judges the same pairs: sweep k of the draws, on the first pair of instances', () => {
    const shape = model.shape(8);
    const drops = new Array<number>(8).fill(0.1);
    const draws = sessionDraws(model, 1, 0);
    const series = beforeSeries(model, shape, drops, sessionDraws(model, 1, 0));
    assert.equal(series[3]!.logRatios.length, shape.sweeps);
    for (const k of [1, 2, shape.sweeps]) {
      const { sign, values } = draws.sweep(k);
      assert.equal(series[3]!.logRatios[k - 1], Math.log(0.9) + sign * values[3]! + draws.offsets(0)[3]!);
      assert.equal(
        pairValue(model, 3, 0.1, series[3]!.baselineFirst[k - 1]!, draws.sweep(k), draws.offsets(0)[3]!),
        series[3]!.logRatios[k - 1],
      );
    }
    const before = simulateSessionBefore(model, shape, drops, sessionDraws(model, 1, 0));
    assert.deepEqual(simulateSessionBefore(model, shape, drops, sessionDraws(model, 1, 0)), before);
    assert.equal(simulateSession(model, shape, drops, sessionDraws(model, 1, 0)).length, 8);
  });

  test('a synthetic pool has the noise it was given', () => {
    const values = model.residuals.flatMap((r) => [...r]);
    const sd = Math.sqrt(values.reduce((a, v) => a + v * v, 0) / values.length);
    assert.ok(Math.abs(sd - 0.08) < 0.004, `sd ${sd}`);
  });
});
