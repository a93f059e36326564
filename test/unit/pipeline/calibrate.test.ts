import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pino } from 'pino';
import type { Config } from '../../../src/config/index.js';
import { calibrationTarget, compareSettings, logCalibratedExpectation, NoCalibrationTargetError } from '../../../src/pipeline/index.js';
import { fingerprintId, hostFingerprint } from '../../../src/sampling/index.js';
import { openStore } from '../../../src/store/index.js';
import type { Suite } from '../../../src/suite/index.js';
import { sessionInput } from '../store/store-inputs.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-calibrate-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const config = { state_dir: dir, alpha: 0.01, max_pairs: 200, targets: {}, calibrate_target: undefined } as unknown as Config;
const suite = (name: string): Suite => ({ name, budgetMinutes: 8 }) as unknown as Suite;

function capture() {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) };
}

test('a check logs the calibrated expectation of this host, and warns once per suite when there is none', async () => {
  const store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
  try {
    const fp = await hostFingerprint(dir, { idleStatesHeld: true });
    const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fp), fingerprint: fp });
    const sessionId = await store.createSession(sessionInput(hostId, { suite: 'quick' }));
    await store.finishSession(sessionId);
    const figure = { threads: 1, pairs: 20, noise: 0.03, pairSeconds: 3, pairsNeeded: 14, minutesNeeded: 0.7, detectableDrop: 0.04 };
    await store.recordCalibration({ hostId, sessionId, suite: 'quick', target: 'local', settings: { alpha: 0.01 }, tests: [{ test: 'a', ...figure }, { test: 'b', ...figure, noise: 0.09 }] });

    const { lines, log } = capture();
    const settings = compareSettings(config);
    await logCalibratedExpectation({ settings, store, log }, suite('quick'), 8);
    await logCalibratedExpectation({ settings, store, log }, suite('never-calibrated'), 8);
    await logCalibratedExpectation({ settings, store, log }, suite('never-calibrated'), 8);
    const info = lines.filter((l) => l.level === 30);
    const warn = lines.filter((l) => l.level === 40);
    assert.equal(info.length, 1);
    // 8 min of sweeps of 6 s: 80 pairs per test.
    assert.equal(info[0]!['pairs'], 80);
    assert.match(info[0]!.msg, /^calibrated expectation: 80 pairs per test in 8 min, detectable drop \d+-\d+% per test$/);
    assert.equal(warn.length, 1);
    assert.match(warn[0]!.msg, /no calibration for the never-calibrated suite.*run qpswatch calibrate --suite never-calibrated/);
  } finally {
    await store.close();
  }
});

test('the target calibrated: calibrate_target, else the first of targets, else a clear error', () => {
  assert.equal(calibrationTarget({ ...config, calibrate_target: 'x', targets: { a: {} } } as unknown as Config), 'x');
  assert.equal(calibrationTarget({ ...config, targets: { a: {}, b: {} } } as unknown as Config), 'a');
  assert.throws(() => calibrationTarget(config), NoCalibrationTargetError);
});
