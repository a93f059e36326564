import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  afterStep,
  bisectBuildBound,
  conclude,
  nextIndex,
  startSearch,
  stepVerdict,
  type BisectConclusion,
  type BisectSearch,
  type StepOutcome,
} from '../../../src/analysis/index.js';
import type { VerdictKind } from '../../../src/model/index.js';

const search = (count: number, good: number, bad: number, skipped: number[] = []): BisectSearch => ({
  count,
  good,
  bad,
  skipped,
});

/** Runs a whole search against an oracle: commits from firstBad on are bad, `broken` ones do not build. */
function simulate(
  count: number,
  firstBad: number,
  broken: readonly number[],
): { conclusion: BisectConclusion; tried: number[] } {
  let s = startSearch(count);
  const tried: number[] = [];
  for (let i = nextIndex(s); i !== undefined; i = nextIndex(s)) {
    tried.push(i);
    const outcome: StepOutcome = broken.includes(i) ? 'skip' : i >= firstBad ? 'bad' : 'good';
    s = afterStep(s, i, outcome);
  }
  return { conclusion: conclude(s), tried };
}

describe('bisect search', () => {
  test('the next commit is the untried one nearest the middle, the older of two, skipped ones left out', () => {
    const cases: Array<[BisectSearch, number | undefined]> = [
      [search(17, -1, 16), 7],
      [search(17, 7, 16), 11],
      [search(17, -1, 7), 3],
      [search(17, -1, 16, [7]), 6],
      [search(17, -1, 16, [6, 7]), 8],
      [search(17, 3, 5), 4],
      [search(17, 3, 5, [4]), undefined],
      [search(17, 4, 5), undefined],
      [search(1, -1, 0), undefined],
      [search(2, -1, 1), 0],
    ];
    for (const [s, expected] of cases) assert.equal(nextIndex(s), expected, JSON.stringify(s));
  });

  test('an outcome moves the good end, the bad end, or adds a skip; an index outside the range is refused', () => {
    const s = search(17, -1, 16);
    assert.deepEqual(afterStep(s, 7, 'good'), search(17, 7, 16));
    assert.deepEqual(afterStep(s, 7, 'bad'), search(17, -1, 7));
    assert.deepEqual(afterStep(afterStep(s, 9, 'skip'), 7, 'skip'), search(17, -1, 16, [7, 9]));
    assert.throws(() => afterStep(s, 16, 'good'), /index 16 is not between good -1 and bad 16/);
    assert.throws(() => afterStep(s, -1, 'bad'), RangeError);
  });

  test('the conclusion: the bad end, or the skipped commits before it and the bad end', () => {
    const cases: Array<[BisectSearch, BisectConclusion]> = [
      [search(17, 3, 4), { kind: 'found', index: 4 }],
      [search(17, -1, 0), { kind: 'found', index: 0 }],
      [search(17, 3, 5, [4]), { kind: 'ambiguous', indices: [4, 5] }],
      [search(17, 3, 6, [4, 5, 9]), { kind: 'ambiguous', indices: [4, 5, 6] }],
      [search(17, 5, 6, [4]), { kind: 'found', index: 6 }],
    ];
    for (const [s, expected] of cases) assert.deepEqual(conclude(s), expected, JSON.stringify(s));
  });

  test('every first bad commit of 17 is found within ceil(log2(17)) + 2 = 7 builds, with a broken one skipped', () => {
    assert.equal(bisectBuildBound(17), 7);
    for (let firstBad = 0; firstBad < 17; firstBad++) {
      for (const broken of [[], [7], [3], [11]]) {
        const { conclusion, tried } = simulate(17, firstBad, broken);
        assert.ok(tried.length <= bisectBuildBound(17), `first bad ${firstBad}, broken ${broken}: ${tried}`);
        // Only a broken commit right before the first bad one hides which of the two it is.
        if (broken[0] === firstBad - 1)
          assert.deepEqual(conclusion, { kind: 'ambiguous', indices: broken.concat(firstBad) });
        else if (broken[0] !== firstBad) assert.deepEqual(conclusion, { kind: 'found', index: firstBad });
      }
    }
  });

  test('the demo: slow at 4, broken at 7, the tag at 16: 7 is skipped and 4 found in 5 builds', () => {
    const { conclusion, tried } = simulate(17, 4, [7]);
    assert.deepEqual(tried, [7, 6, 2, 4, 3]);
    assert.deepEqual(conclusion, { kind: 'found', index: 4 });
  });

  test('the build bound for small and large ranges', () => {
    const cases: Array<[number, number]> = [
      [1, 2],
      [2, 3],
      [3, 4],
      [16, 6],
      [17, 7],
      [1000, 12],
    ];
    for (const [count, bound] of cases) assert.equal(bisectBuildBound(count), bound, `count ${count}`);
  });

  test("a step's outcome from its verdicts: any regression is bad, all ok or improved is good, else undecided", () => {
    const cases: Array<[VerdictKind[], string]> = [
      [['regression'], 'bad'],
      [['ok', 'regression'], 'bad'],
      [['unstable', 'regression'], 'bad'],
      [['ok'], 'good'],
      [['ok', 'improvement'], 'good'],
      [['ok', 'slower'], 'undecided'],
      [['unstable'], 'undecided'],
      [[], 'undecided'],
    ];
    for (const [kinds, expected] of cases) assert.equal(stepVerdict(kinds), expected, kinds.join(','));
  });
});
