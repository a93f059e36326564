import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Config } from '../../../src/config/index.js';
import { calibrationTarget, NoCalibrationTargetError } from '../../../src/session/index.js';

const config = { alpha: 0.01, max_pairs: 200, targets: {}, calibrate_target: undefined } as unknown as Config;

test('the target calibrated: calibrate_target, else the first of targets, else a clear error', () => {
  assert.equal(calibrationTarget({ ...config, calibrate_target: 'x', targets: { a: {} } } as unknown as Config), 'x');
  assert.equal(calibrationTarget({ ...config, targets: { a: {}, b: {} } } as unknown as Config), 'a');
  assert.throws(() => calibrationTarget(config), NoCalibrationTargetError);
});
