import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alphaAtLook, judgePairedSession, pairsAtLook, replayLooks, signFlipMaxT, studentCdf, studentQuantile, type PairSeries } from '../../../src/analysis/index.js';
import { clipOutliers } from '../../../src/analysis/sequential.js';
import type { SampleRecord } from '../../../src/store/index.js';

describe("Student's t", () => {
  // Reference values from printed tables of the t distribution.
  const quantiles: Array<[number, number, number]> = [
    [0.975, 1, 12.706],
    [0.975, 7, 2.365],
    [0.95, 11, 1.796],
    [0.995, 20, 2.845],
    [0.8, 7, 0.896],
    [0.975, 1000, 1.962],
  ];
  for (const [p, df, t] of quantiles) test(`t(${p}, ${df}) = ${t}`, () => assert.ok(Math.abs(studentQuantile(p, df) - t) < 1e-3, String(studentQuantile(p, df))));
  test('the cdf and the quantile invert each other, on both sides', () => {
    for (const df of [2, 5, 30]) for (const p of [0.001, 0.2, 0.5, 0.9, 0.9999]) assert.ok(Math.abs(studentCdf(studentQuantile(p, df), df) - p) < 1e-9);
  });
});

describe('the look schedule', () => {
  test('pairs at 8, 12, 18, 27, 41 and alpha halved each look, adding up to alpha', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(pairsAtLook), [8, 12, 18, 27, 41]);
    const spent = Array.from({ length: 40 }, (_, i) => alphaAtLook(0.01, i + 1)).reduce((a, b) => a + b, 0);
    assert.ok(spent < 0.01 && spent > 0.00999);
  });
});

/** Deterministic pseudo-noise: the same numbers on every run. */
function noise(seed: number, n: number, size: number): number[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return ((a / 2 ** 31) * 2 - 1) * size;
  });
}

describe('signFlipMaxT', () => {
  test('a clean drop is as extreme as 8 pairs can be: p = 1/256, and the noisy test next to it is not flagged', () => {
    const drop = noise(1, 8, 0.01).map((d) => d - 0.3);
    const same = noise(2, 8, 0.05);
    const result = signFlipMaxT([drop, same]);
    assert.equal(result.flips, 256);
    assert.equal(result.slower[0], 1 / 256);
    assert.ok(result.slower[1]! > 0.2, `p of the unchanged test ${result.slower[1]}`);
  });
  test('the max over tests makes every p-value family-wise: a test alone gets a p-value no larger', () => {
    const a = noise(3, 10, 0.05).map((d) => d - 0.04);
    const b = noise(4, 10, 0.05);
    assert.ok(signFlipMaxT([a])[`slower`][0]! <= signFlipMaxT([a, b]).slower[0]!);
  });
  test('more than 2^16 sign vectors are sampled, seeded and reproducible', () => {
    const series = [noise(5, 20, 0.05)];
    const one = signFlipMaxT(series, 7);
    assert.equal(one.exhaustive, false);
    assert.deepEqual(signFlipMaxT(series, 7), one);
  });
});

describe('clipOutliers', () => {
  test('a hiccup is clipped to 5x the median size, and the bound does not depend on signs', () => {
    const d = [0.02, -0.03, 0.01, -2, 0.02, -0.01, 0.03, -0.02];
    const clipped = clipOutliers(d);
    assert.equal(clipped[3], -0.1);
    assert.deepEqual(clipOutliers(d.map((x) => -x)), clipped.map((x) => -x));
  });
});

const settings = { alpha: 0.01, confidence: 0.95, thresholdOf: () => 0.95 };
const series = (key: string, logRatios: number[]): PairSeries => ({ key, test: key, logRatios });

describe('replayLooks', () => {
  test('at the first look a big drop is a regression and a steady equal test is ok; nothing is left open', () => {
    const replay = replayLooks([series('slow', noise(6, 8, 0.01).map((d) => d - 0.5)), series('same', noise(7, 8, 0.01))], settings, false);
    assert.deepEqual(replay.pending, []);
    const kinds = Object.fromEntries(replay.decided.map((j) => [j.key, [j.kind, j.look, j.pairs]]));
    assert.deepEqual(kinds, { slow: ['regression', 1, 8], same: ['ok', 1, 8] });
  });
  test('a noisy test stays open for the next look (12 pairs) while the session goes on', () => {
    const replay = replayLooks([series('noisy', noise(8, 9, 0.3))], settings, false);
    assert.deepEqual(replay.pending, ['noisy']);
    assert.equal(replay.nextPairs, 12);
  });
  test('when the budget ends between looks, what is open is judged on all its pairs and left unstable with its bound', () => {
    const replay = replayLooks([series('noisy', noise(8, 10, 0.3))], settings, true);
    const [j] = replay.decided;
    assert.equal(j?.kind, 'unstable');
    assert.equal(j?.pairs, 10);
    assert.equal(j?.look, 2);
    assert.ok(j!.low < 0.95 && j!.detectableDrop > 0.05, `low ${j!.low}, detectable ${j!.detectableDrop}`);
  });
  test('the detectable drop shrinks as pairs are added', () => {
    const at = (n: number) => replayLooks([series('x', noise(9, n, 0.3))], settings, true).decided[0]!.detectableDrop;
    assert.ok(at(8) > at(18) && at(18) > at(41), `${at(8)} ${at(18)} ${at(41)}`);
  });
});

describe('judgePairedSession', () => {
  const sample = (role: 'baseline' | 'candidate', round: number, test: string, qps: number): SampleRecord =>
    ({ id: 0, sessionId: 1, createdAt: '', role, round, test, threads: 1, targetName: role, seconds: 1, qps, tps: qps, latencyAvgMs: 1, latencyP95Ms: 1, latencyMaxMs: 1, errors: 0, reconnects: 0,
      cpuPerOp: role === 'candidate' && test === 'write' ? 0.02 : 0.01, cpuMicrosPerOp: 1, csPerOp: 1, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: role === 'candidate' && test === 'write' ? 3 : 1, host: {}, dbCounters: {} }) as SampleRecord;
  test('pairs by round give each test a verdict with its interval, detectable drop, pairs and noise; a regression names what grew', () => {
    const samples: SampleRecord[] = [];
    const jitter = noise(10, 20, 0.01);
    for (let r = 1; r <= 8; r++) {
      samples.push(sample('baseline', r, 'write', 1000 * (1 + jitter[r]!)), sample('candidate', r, 'write', 600 * (1 + jitter[r + 8]!)));
      samples.push(sample('candidate', r, 'read', 2000 * (1 + jitter[r + 4]!)), sample('baseline', r, 'read', 2000 * (1 + jitter[r - 1]!)));
    }
    const { verdicts } = judgePairedSession(samples, { threshold: 0.95, testThresholds: {}, alpha: 0.01 });
    const write = verdicts.find((v) => v.test === 'write')!;
    const read = verdicts.find((v) => v.test === 'read')!;
    assert.equal(write.kind, 'regression');
    assert.ok(Math.abs(write.relativeQps - 0.6) < 0.02);
    assert.equal(write.hint[0]?.metric, 'wKB/o');
    assert.equal(read.kind, 'ok');
    for (const v of verdicts) {
      assert.equal(v.pairs, 8);
      assert.ok(v.high !== null && v.low < v.relativeQps && v.relativeQps < v.high);
      assert.ok(v.detectableDrop > 0 && v.detectableDrop < 0.2, `${v.test}: ${v.detectableDrop}`);
      assert.ok(v.noise !== null && v.noise > 0);
    }
  });

  test('one pair has no upper end and no noise, and a figure grown from 0 has no ratio: each is null, never Infinity or NaN', () => {
    const fromZero = (s: SampleRecord): SampleRecord => ({ ...s, readsPerOp: s.role === 'candidate' ? 2 : 0 });
    const samples = [sample('baseline', 1, 'write', 1000), sample('candidate', 1, 'write', 500)].map(fromZero);
    const [v] = judgePairedSession(samples, { threshold: 0.95, testThresholds: {}, alpha: 0.01 }).verdicts;
    assert.equal(v!.pairs, 1);
    assert.equal(v!.high, null);
    assert.equal(v!.noise, null);
    const grown = judgePairedSession([...samples, ...[2, 3, 4, 5, 6, 7, 8].flatMap((r) => [sample('baseline', r, 'write', 1000), sample('candidate', r, 'write', 500)].map(fromZero))], { threshold: 0.95, testThresholds: {}, alpha: 0.01 });
    const hint = grown.verdicts[0]!.hint;
    assert.equal(grown.verdicts[0]!.kind, 'regression');
    assert.deepEqual(hint.find((h) => h.metric === 'r/o'), { metric: 'r/o', baseline: 0, candidate: 2, ratio: null });
    assert.equal(hint[0]!.metric, 'r/o', 'a figure grown from 0 leads the hint');
  });
});

describe('replayLooks of a finished session', () => {
  test('a test decided at the first look does not end the replay for one measured on to a later look', () => {
    const decidedEarly = series('steady', noise(11, 8, 0.005));
    const measuredOn = series('noisy', [...noise(12, 8, 0.3), ...noise(13, 10, 0.01)]);
    const replay = replayLooks([decidedEarly, measuredOn], settings, true);
    const byKey = Object.fromEntries(replay.decided.map((j) => [j.key, j]));
    assert.equal(byKey['steady']?.pairs, 8);
    assert.equal(byKey['noisy']?.pairs, 18, 'judged on all 18 of its pairs');
    assert.equal(byKey['noisy']?.look, 3);
  });
});
