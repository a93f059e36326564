import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chainCandidates, chainHistory, type ChainCheck, type HistoryTable } from '../../../src/analysis/index.js';
import type { Figures } from '../../../src/model/index.js';

const close = (actual: number | undefined, expected: number, tolerance = 1e-9): void =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);
const figures: Figures = { qps: 1000, cpuPerOp: 0.001, csPerOp: 1, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0 };

/** Versions 1.0 (the base, release id 1) to 1.n, each measured; `imported` columns have no release id. */
function table(n: number, imported: readonly number[] = []): HistoryTable {
  const columns = Array.from({ length: n + 1 }, (_, i) => ({
    version: `1.${i}`,
    versionKey: `v${String(i).padStart(3, '0')}`,
    label: `tag-1.${i}`,
    imported: imported.includes(i),
    ...(imported.includes(i) ? {} : { releaseId: i + 1 }),
  }));
  return {
    columns,
    rows: [
      { test: 'insert', threads: 1, figures: columns.map(() => figures), detectableDrop: columns.map(() => null) },
    ],
  };
}

/** Release i + 1 checked against release i (its last good) with relative QPS `ratios[i - 1]`. */
function chainOf(ratios: readonly number[], logSe: number | null = 0.01): ChainCheck[] {
  return ratios.map((ratio, i) => ({
    releaseId: i + 2,
    baselineReleaseId: i + 1,
    verdicts: [{ test: 'insert', threads: 1, relativeQps: ratio, logSe }],
  }));
}

const settings = { confidence: 0.95, thresholdOf: () => 0.95 };
const stepsAt = (cells: ReturnType<typeof chainHistory>[number]): string[] =>
  cells.flatMap((c, i) => (c?.step ? [`${i}:${c.step.direction}`] : []));

describe('chainHistory', () => {
  test('four releases each 3% slower: 0.885 of the base at the 4th, the interval from the summed variances', () => {
    const [row] = chainHistory(table(4), 0, chainOf([0.97, 0.97, 0.97, 0.97]), settings);
    close(row![0]!.relativeQps, 1);
    assert.equal(row![0]!.steps, 0);
    const fourth = row![4]!;
    close(fourth.relativeQps, 0.97 ** 4);
    assert.equal(fourth.steps, 4);
    close(fourth.low, 0.97 ** 4 * Math.exp(-1.959964 * 0.02), 1e-6);
    close(fourth.high, 0.97 ** 4 * Math.exp(1.959964 * 0.02), 1e-6);
    assert.equal(fourth.relativeQps.toFixed(3), '0.885');
  });

  test("a check's interval takes t at its error's own degrees of freedom (blocks - 1), else at pairs - 2", () => {
    const one = (v: Partial<ChainCheck['verdicts'][number]>): ChainCheck[] => [
      {
        releaseId: 2,
        baselineReleaseId: 1,
        verdicts: [{ test: 'insert', threads: 1, relativeQps: 1, logSe: 0.01, ...v }],
      },
    ];
    // 21 pairs in 10 blocks: 9 degrees of freedom, not the 19 that pairs - 2 gave.
    const [blocks] = chainHistory(table(1), 0, one({ pairs: 21, logSeDf: 9 }), settings);
    close(blocks![1]!.low, Math.exp(-2.262157 * 0.01), 1e-6);
    const [older] = chainHistory(table(1), 0, one({ pairs: 21 }), settings);
    close(older![1]!.low, Math.exp(-2.093024 * 0.01), 1e-6);
  });

  test('an imported column and a verdict without logSe are not chained, nor is what chains through them', () => {
    const checks = chainOf([0.97, 0.97, 0.97]);
    checks[1] = { ...checks[1]!, verdicts: [{ test: 'insert', threads: 1, relativeQps: 0.97, logSe: null }] };
    const [row] = chainHistory(table(4, [4]), 0, checks, settings);
    assert.deepEqual(
      row!.map((c) => c === null),
      [false, false, true, true, true],
    );
  });

  test('an imported base chains nothing', () => {
    const [row] = chainHistory(table(3, [0]), 0, chainOf([0.97, 0.97, 0.97]), settings);
    assert.ok(row!.every((c) => c === null));
  });
});

describe('where a step began', () => {
  test('a flat series has no mark', () => {
    const [row] = chainHistory(table(6), 0, chainOf([1.005, 0.995, 1.01, 0.99, 1, 1.004]), settings);
    assert.deepEqual(stepsAt(row!), []);
  });

  test('a 10% drop after the 3rd version is marked at the 4th, once', () => {
    const [row] = chainHistory(table(6), 0, chainOf([1, 1.002, 0.9, 1, 0.998, 1]), settings);
    assert.deepEqual(stepsAt(row!), ['3:down']);
    close(row![3]!.step!.ratio, 0.9);
  });

  test(
    'a 3%-per-release slope at a check error of 2% marks no step (each jump ' +
      'is 1.5 errors); at 0.5% it marks every release',
    () => {
      const [noisy] = chainHistory(table(5), 0, chainOf([0.97, 0.97, 0.97, 0.97, 0.97], 0.02), settings);
      assert.deepEqual(stepsAt(noisy!), []);
      assert.ok(noisy![4]!.relativeQps < 0.95, 'the drift shows in the chained estimate instead');
      const [tight] = chainHistory(table(3), 0, chainOf([0.97, 0.97, 0.97], 0.005), settings);
      assert.deepEqual(stepsAt(tight!), ['1:down', '2:down', '3:down']);
    },
  );

  test("the step rule holds a jump to t at the check's own degrees of freedom", () => {
    // A 4% drop at an error of 1%: 4.08 errors. Past t(1 - 1/740, 19) = 3.45, short of t(1 - 1/740, 9) = 4.09.
    const checks = (v: Partial<ChainCheck['verdicts'][number]>): ChainCheck[] =>
      chainOf([1, 0.96]).map((c) => ({ ...c, verdicts: c.verdicts.map((x) => ({ ...x, pairs: 21, ...v })) }));
    const [blocks] = chainHistory(table(2), 0, checks({ logSeDf: 9 }), settings);
    assert.deepEqual(stepsAt(blocks!), []);
    const [older] = chainHistory(table(2), 0, checks({}), settings);
    assert.deepEqual(stepsAt(older!), ['2:down']);
  });

  test('a significant jump smaller than half the margin is not a step', () => {
    const [row] = chainHistory(table(3), 0, chainOf([1, 0.98, 1], 0.001), settings);
    assert.deepEqual(stepsAt(row!), []);
  });

  test('a direct check against the base re-anchors; the jump to it counts both errors, not the shared part', () => {
    // 1.3 was checked against 1.2 (0.97) and directly against the base (0.85): the direct one wins.
    const checks: ChainCheck[] = [
      ...chainOf([1, 1, 0.97]),
      {
        releaseId: 4,
        baselineReleaseId: 1,
        verdicts: [{ test: 'insert', threads: 1, relativeQps: 0.85, logSe: 0.01 }],
      },
    ];
    const [row] = chainHistory(table(3), 0, checks, settings);
    close(row![3]!.relativeQps, 0.85);
    assert.equal(row![3]!.steps, 1);
    assert.deepEqual(stepsAt(row!), ['3:down']);
  });
});

describe('chainCandidates', () => {
  test('per release the newest valid check and the newest valid one against the base; invalid ones never', () => {
    const check = (sessionId: number, releaseId: number, baselineReleaseId: number, invalid = false) => ({
      sessionId,
      releaseId,
      baselineReleaseId,
      invalid,
    });
    const got = chainCandidates(
      [check(1, 2, 1), check(2, 3, 2), check(3, 3, 2), check(4, 3, 1), check(5, 3, 2, true), check(6, 4, 1, true)],
      1,
    );
    assert.deepEqual(got.map((c) => c.sessionId).sort(), [1, 3, 4]);
  });
});
